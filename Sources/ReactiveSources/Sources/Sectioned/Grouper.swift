import Foundation
import Signals

/// Groups a parent's objects into keyed sections; the body of a Sectioned source's derived
/// snapshot. Its bookkeeping is touched only from that closure, which runs serially.
///
/// Every parent row carries an order label (``RowLabel``: its parent section and a number
/// that grows along the section), so the place of a row inside its keyed section is found by
/// binary search, and a parent edit of k rows costs O(k log² n + sections log sections).
/// A parent update that changes sections, empties or fills the parent, touches more than an
/// eighth of the rows, or runs out of room between two labels is grouped again from scratch
/// (O(n)) and diffed.
final class Grouper<Object: Hashable & Sendable, Key: Hashable & Sendable>: @unchecked Sendable {
    private let parent: any DataSource<Object>
    private let key: @Sendable (Object) -> Key
    private let title: @Sendable (Key) -> String
    private let sectionOrder: SectionOrder<Key>
    private let objectOrder: (@Sendable (Object, Object) -> Bool)?

    /// The parent update last grouped.
    private var last: SnapshotUpdate<Object>?
    /// The keys of the sections, in order, and each one's index.
    private var keys: [Key] = []
    /// For each key: the labels of its section's rows, aligned with the objects.
    private var labels: [Key: RowStorage<RowLabel>] = [:]
    /// For each parent section: the labels of its rows, aligned with its objects.
    private var parentLabels: [RowStorage<UInt64>] = []

    /// Distance between the labels of appended rows (and of rows grouped from scratch).
    private static var stride: UInt64 { 1 << 32 }

    init(
        parent: any DataSource<Object>,
        key: @escaping @Sendable (Object) -> Key,
        title: @escaping @Sendable (Key) -> String,
        sectionOrder: SectionOrder<Key>,
        objectOrder: (@Sendable (Object, Object) -> Bool)?
    ) {
        self.parent = parent
        self.key = key
        self.title = title
        self.sectionOrder = sectionOrder
        self.objectOrder = objectOrder
    }

    func group(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let update = parent.updates.value
        if let last, last.version == update.version { return previous }
        defer { last = update }
        if let last, let changes = update.version == last.version &+ 1 ? update.changes : update.changes(since: last.version),
           !(changes.rowChangeCount > 64 && changes.rowChangeCount * 8 > update.snapshot.objectCount),
           let (snapshot, ownChanges) = follow(changes, from: last.snapshot, to: update.snapshot, own: previous.snapshot) {
            return ownChanges.isEmpty ? previous : previous.next(snapshot, changes: ownChanges)
        }
        let snapshot = regroup(update.snapshot)
        let changes = ChangeSet(from: previous.snapshot, to: snapshot)
        if changes.isEmpty && snapshot == previous.snapshot { return previous }
        return previous.next(snapshot, changes: changes)
    }

    // MARK: Following a parent's row edits

    /// A row leaving a section: its key, label and old place.
    private struct Departure {
        var key: Key
        var label: RowLabel
        var object: Object
        var parentPath: RowPath?
        var position = 0
    }

    /// A row arriving in a section.
    private struct Arrival {
        var key: Key
        var label: RowLabel
        var object: Object
        var parentPath: RowPath?
        /// The departure it pairs with (a parent move, or an update that changed its key).
        var departure: Int?
    }

    private func follow(
        _ changes: ChangeSet, from old: Snapshot<Object>, to new: Snapshot<Object>, own: Snapshot<Object>
    ) -> (Snapshot<Object>, ChangeSet)? {
        guard changes.touchesOnlyRows, old.sections.count == new.sections.count, parentLabels.count == old.sections.count,
              !keys.isEmpty, new.objectCount > 0, own.sections.count == keys.count,
              let edits = ParentChanges(changes, old: old, new: new) else { return nil }
        // 1. Where the rows that leave or change are now (old own positions).
        var departures: [Departure] = []
        var arrivals: [Arrival] = []
        var inPlace: [(key: Key, label: RowLabel, object: Object)] = []
        var departureOfMove: [RowPath: Int] = [:]
        let movedFrom = Set(edits.moves.map(\.from))
        for (section, sectionEdits) in edits.rows {
            let oldObjects = old.sections[section].objects
            for item in sectionEdits.removed {
                let object = oldObjects[item]
                let path = RowPath(item: item, section: section)
                if movedFrom.contains(path) { departureOfMove[path] = departures.count }
                departures.append(Departure(key: key(object), label: RowLabel(section: section, value: parentLabels[section][item]), object: object, parentPath: path))
            }
            for (oldItem, newItem) in sectionEdits.updated {
                let before = oldObjects[oldItem]
                let after = new.sections[section].objects[newItem]
                let label = RowLabel(section: section, value: parentLabels[section][oldItem])
                let oldKey = key(before)
                let newKey = key(after)
                if oldKey == newKey && objectOrder == nil {
                    inPlace.append((newKey, label, after))
                } else {
                    arrivals.append(Arrival(key: newKey, label: label, object: after, parentPath: nil, departure: departures.count))
                    departures.append(Departure(key: oldKey, label: label, object: before, parentPath: nil))
                }
            }
        }
        for index in departures.indices {
            guard let rows = labels[departures[index].key],
                  let position = position(of: departures[index].label, object: departures[index].object, in: rows, own: own, key: departures[index].key)
            else { return nil }
            departures[index].position = position
        }
        // 2. The parent's labels follow its edits; arriving rows take labels between neighbours.
        for (section, sectionEdits) in edits.rows {
            var sectionLabels = parentLabels[section]
            for item in sectionEdits.removed.reversed() { sectionLabels.remove(at: item) }
            for item in sectionEdits.added {
                let before = item > 0 ? sectionLabels[item - 1] : 0
                let value: UInt64
                if item == sectionLabels.count {
                    guard before <= UInt64.max - Self.stride else { return nil }
                    value = before + Self.stride
                } else {
                    let after = sectionLabels[item]
                    guard after - before >= 2 else { return nil }
                    value = before + (after - before) / 2
                }
                sectionLabels.insert(value, at: item)
                let object = new.sections[section].objects[item]
                let path = RowPath(item: item, section: section)
                arrivals.append(Arrival(key: key(object), label: RowLabel(section: section, value: value), object: object, parentPath: path, departure: nil))
            }
            parentLabels[section] = sectionLabels
        }
        for move in edits.moves {
            guard let departure = departureOfMove[move.from],
                  let arrival = arrivals.firstIndex(where: { $0.parentPath == move.to }) else { return nil }
            arrivals[arrival].departure = departure
        }
        // 3. Edit the sections: changes in place, then removals, then insertions.
        var objects: [Key: RowStorage<Object>] = [:]
        for (index, sectionKey) in keys.enumerated() { objects[sectionKey] = own.sections[index].objects }
        for change in inPlace {
            guard let rows = labels[change.key], let position = position(of: change.label, in: rows) else { return nil }
            objects[change.key]![position] = change.object
        }
        for (sectionKey, positions) in Dictionary(grouping: departures, by: \.key).mapValues({ $0.map(\.position).sorted(by: >) }) {
            for position in positions {
                objects[sectionKey]!.remove(at: position)
                labels[sectionKey]!.remove(at: position)
            }
        }
        for arrival in arrivals {
            var rows = labels[arrival.key] ?? []
            var sectionObjects = objects[arrival.key] ?? []
            let position = insertionPoint(of: arrival.label, object: arrival.object, labels: rows, objects: sectionObjects)
            rows.insert(arrival.label, at: position)
            sectionObjects.insert(arrival.object, at: position)
            labels[arrival.key] = rows
            objects[arrival.key] = sectionObjects
        }
        let oldKeys = keys
        var newKeys = oldKeys.filter { !(objects[$0]?.isEmpty ?? true) }
        var known = Set(newKeys)
        for arrival in arrivals where known.insert(arrival.key).inserted { newKeys.append(arrival.key) }
        for emptied in oldKeys where objects[emptied]?.isEmpty ?? true {
            labels[emptied] = nil
            objects[emptied] = nil
        }
        keys = ordered(newKeys)
        // 4. The change set, in old and new section indexes.
        var result = ChangeSet()
        let newIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let oldIndex = Dictionary(uniqueKeysWithValues: oldKeys.enumerated().map { ($1, $0) })
        let sectionMatch = Matching(old: oldKeys, new: keys)
        for (index, partner) in sectionMatch.oldToNew.enumerated() where partner < 0 { result.deletedSections.append(index) }
        var matchedOld: [Int] = []
        var matchedNew: [Int] = []
        for (index, partner) in sectionMatch.newToOld.enumerated() {
            if partner < 0 { result.insertedSections.append(index) } else {
                matchedOld.append(partner)
                matchedNew.append(index)
            }
        }
        let stable = longestIncreasingSubsequenceMask(matchedOld)
        for position in matchedOld.indices where !stable[position] {
            result.movedSections.append(.init(from: matchedOld[position], to: matchedNew[position]))
        }
        func newPath(_ sectionKey: Key, _ label: RowLabel, _ object: Object) -> RowPath? {
            guard let index = newIndex[sectionKey], oldIndex[sectionKey] != nil, let rows = labels[sectionKey],
                  let position = position(of: label, object: object, in: rows, objects: objects[sectionKey]!) else { return nil }
            return RowPath(item: position, section: index)
        }
        func oldPath(_ departure: Departure) -> RowPath? {
            guard newIndex[departure.key] != nil, let index = oldIndex[departure.key] else { return nil }
            return RowPath(item: departure.position, section: index)
        }
        var paired = Set<Int>()
        for arrival in arrivals {
            let to = newPath(arrival.key, arrival.label, arrival.object)
            if let departure = arrival.departure {
                paired.insert(departure)
                let from = oldPath(departures[departure])
                switch (from, to) {
                case let (from?, to?):
                    result.movedRows.append(.init(from: from, to: to))
                    if arrival.parentPath == nil || edits.movedAndUpdated.contains(arrival.parentPath!) { result.updatedRows.append(to) }
                case let (from?, nil): result.deletedRows.append(from)
                case let (nil, to?): result.insertedRows.append(to)
                case (nil, nil): break
                }
            } else if let to {
                result.insertedRows.append(to)
            }
        }
        for (index, departure) in departures.enumerated() where !paired.contains(index) {
            if let from = oldPath(departure) { result.deletedRows.append(from) }
        }
        for change in inPlace {
            if let path = newPath(change.key, change.label, change.object) { result.updatedRows.append(path) }
        }
        result.normalize()
        result.movedRows.sort { $0.to < $1.to }
        let sections = keys.map { sectionKey in
            SnapshotSection(id: title(sectionKey), title: title(sectionKey), objects: objects[sectionKey]!)
        }
        return (Snapshot(sections: sections), result)
    }

    /// Orders section keys: by the section order, else by where each key first appears.
    private func ordered(_ sectionKeys: [Key]) -> [Key] {
        if let order = sectionOrder.areInIncreasingOrder { return sectionKeys.sorted(by: order) }
        return sectionKeys.map { ($0, firstLabel(of: $0)) }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The smallest label of a section (its first row's, unless rows are ordered by object).
    private func firstLabel(of sectionKey: Key) -> RowLabel {
        guard let rows = labels[sectionKey], !rows.isEmpty else { return RowLabel(section: .max, value: .max) }
        return objectOrder == nil ? rows[0] : rows.min()!
    }

    /// The position of the row labelled `label` in a section ordered by label only.
    private func position(of label: RowLabel, in rows: RowStorage<RowLabel>) -> Int? {
        let index = lowerBound(rows.count) { rows[$0] < label }
        return index < rows.count && rows[index] == label ? index : nil
    }

    /// The position of the row (`label`, `object`) in the section of `key` of `own`.
    private func position(of label: RowLabel, object: Object, in rows: RowStorage<RowLabel>, own: Snapshot<Object>, key sectionKey: Key) -> Int? {
        guard objectOrder != nil else { return position(of: label, in: rows) }
        guard let index = keys.firstIndex(of: sectionKey) else { return nil }
        return position(of: label, object: object, in: rows, objects: own.sections[index].objects)
    }

    private func position(of label: RowLabel, object: Object, in rows: RowStorage<RowLabel>, objects: RowStorage<Object>) -> Int? {
        guard objectOrder != nil else { return position(of: label, in: rows) }
        let index = lowerBound(rows.count) { precedes(objects[$0], rows[$0], object, label) }
        return index < rows.count && rows[index] == label ? index : nil
    }

    /// Where the row (`label`, `object`) goes in a section.
    private func insertionPoint(of label: RowLabel, object: Object, labels rows: RowStorage<RowLabel>, objects: RowStorage<Object>) -> Int {
        lowerBound(rows.count) { precedes(objects[$0], rows[$0], object, label) }
    }

    /// The order of rows inside a section: the object order if any, then the parent's order.
    private func precedes(_ lhs: Object, _ lhsLabel: RowLabel, _ rhs: Object, _ rhsLabel: RowLabel) -> Bool {
        if let objectOrder {
            if objectOrder(lhs, rhs) { return true }
            if objectOrder(rhs, lhs) { return false }
        }
        return lhsLabel < rhsLabel
    }

    /// The first index in `0..<count` for which `isBefore` is false (`isBefore` must be true
    /// on a prefix).
    private func lowerBound(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Grouping from scratch

    /// Groups everything from scratch and labels every row. O(n) plus sorting sections (and
    /// rows within sections, if ordered).
    private func regroup(_ snapshot: Snapshot<Object>) -> Snapshot<Object> {
        var groups: [Key: (objects: [Object], labels: [RowLabel])] = [:]
        var firstSeen: [Key] = []
        parentLabels = []
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            var sectionLabels: [UInt64] = []
            sectionLabels.reserveCapacity(section.objects.count)
            var value: UInt64 = 0
            for object in section.objects {
                value += Self.stride
                sectionLabels.append(value)
                let objectKey = key(object)
                if groups[objectKey] == nil { firstSeen.append(objectKey) }
                groups[objectKey, default: ([], [])].objects.append(object)
                groups[objectKey]!.labels.append(RowLabel(section: sectionIndex, value: value))
            }
            parentLabels.append(RowStorage(sectionLabels))
        }
        keys = sectionOrder.areInIncreasingOrder.map { firstSeen.sorted(by: $0) } ?? firstSeen
        labels = [:]
        var sections: [SnapshotSection<Object>] = []
        sections.reserveCapacity(keys.count)
        for sectionKey in keys {
            var (objects, rowLabels) = groups.removeValue(forKey: sectionKey)!
            if let objectOrder {
                let order = objects.indices.sorted { lhs, rhs in
                    objectOrder(objects[lhs], objects[rhs]) || (!objectOrder(objects[rhs], objects[lhs]) && lhs < rhs)
                }
                objects = order.map { objects[$0] }
                rowLabels = order.map { rowLabels[$0] }
            }
            labels[sectionKey] = RowStorage(rowLabels)
            let sectionTitle = title(sectionKey)
            sections.append(SnapshotSection(id: sectionTitle, title: sectionTitle, objects: RowStorage(objects)))
        }
        if sections.isEmpty, let placeholder = snapshot.sections.last?.placeholder {
            sections = [SnapshotSection(id: "", title: nil, objects: [], placeholder: placeholder)]
        }
        return Snapshot(sections: sections)
    }
}

/// Where a row stands in its parent: its section, and a number that grows along the section.
struct RowLabel: Comparable, Hashable, Sendable {
    var section: Int
    var value: UInt64

    static func < (lhs: RowLabel, rhs: RowLabel) -> Bool {
        (lhs.section, lhs.value) < (rhs.section, rhs.value)
    }
}
