import Foundation
import Signals

/// Groups a parent's objects into keyed sections; the body of a Sectioned source's derived
/// snapshot. Its bookkeeping is touched only from that closure, which runs serially.
///
/// Every parent row carries an order label (``RowLabel``: its parent section and a number
/// that grows along the section), so the place of a row inside its keyed section is found by
/// binary search, and a parent edit of k rows costs O(k log² n) when no section appears,
/// empties or changes place, else O(k log² n + sections log sections).
/// A parent edit touching more than a sixteenth of the rows is followed in one merge pass
/// (O(n + k log k), see ``followInBulk(_:from:to:own:)``) when sections neither appear,
/// empty nor move. A parent update that changes sections, empties or fills the parent,
/// touches more than an eighth of the rows (and cannot be merged), or runs out of room
/// between two labels is grouped again from scratch (O(n)) and diffed.
final class Grouper<Object: Hashable & Sendable, Key: Hashable & Sendable>: @unchecked Sendable {
    let parent: any DataSource<Object>
    let key: @Sendable (Object) -> Key
    private let title: @Sendable (Key) -> String
    private let sectionOrder: SectionOrder<Key>
    let objectOrder: (@Sendable (Object, Object) -> Bool)?
    /// Merges rows (compiled for `Object` by the inlinable initialisers).
    let loops: CompiledLoops<Object>
    /// Reads the keys of rows (compiled for `Object` and `Key` likewise).
    let keyLoops: SectionKeyLoops<Object, Key>

    /// The parent update last grouped: its version, its sections' ``ParentChanges/shapes(_:)``,
    /// and its snapshot only while the parent records no before-images (holding it makes the
    /// parent copy every path it edits next; see ``OldRows``).
    private var lastVersion: UInt64?
    private var lastShapes: [Int] = []
    private var lastSnapshot: Snapshot<Object>?
    /// The keys of the sections, in order.
    var keys: [Key] = []
    /// Each key's index in `keys`.
    var keyIndex: [Key: Int] = [:]
    /// Each key's section title, computed once per key.
    private var titles: [Key: String] = [:]
    /// With rows ordered by object: each key's smallest label (its first row in the parent),
    /// kept as rows come and go, so ranking sections by first appearance reads no section.
    var smallestLabels: [Key: RowLabel] = [:]
    /// For each key: the labels of its section's rows, aligned with the objects.
    var labels: [Key: RowStorage<RowLabel>] = [:]
    /// For each parent section: the labels of its rows, aligned with its objects.
    var parentLabels: [RowStorage<UInt64>] = []
    /// The properties the closures read (see ``ReadRecord``), read again on every update.
    private let closureReads = ReadRecord()


    init(
        parent: any DataSource<Object>,
        key: @escaping @Sendable (Object) -> Key,
        title: @escaping @Sendable (Key) -> String,
        sectionOrder: SectionOrder<Key>,
        objectOrder: (@Sendable (Object, Object) -> Bool)?,
        loops: CompiledLoops<Object>,
        keyLoops: SectionKeyLoops<Object, Key>
    ) {
        self.loops = loops
        self.keyLoops = keyLoops
        self.parent = parent
        self.key = key
        self.title = title
        self.sectionOrder = sectionOrder
        self.objectOrder = objectOrder
        (parent as? any BeforeImageSource)?.requestBeforeImages()
    }

    deinit {
        (parent as? any BeforeImageSource)?.endBeforeImages()
    }

    /// Records `update` as the one grouped last. O(sections).
    private func remember(_ update: SnapshotUpdate<Object>) {
        lastVersion = update.version
        lastShapes = ParentChanges.shapes(update.snapshot)
        lastSnapshot = update.hasBeforeImages ? nil : update.snapshot
    }

    /// The next own update after `previous`: the parent's changes followed, or everything
    /// grouped again when a property the key, title or order closures read changed.
    func group(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let update = parent.updates.value
        if closureReads.readAgain() || closureReads.isOverfull {
            remember(update)
            closureReads.removeAll()
            return closureReads.recording { regrouped(update.snapshot, previous: previous) }
        }
        if lastVersion == update.version { return previous }
        defer { remember(update) }
        return closureReads.recording { followed(update, previous: previous) }
    }

    /// The parent's changes since the update grouped last followed row by row or in bulk,
    /// else grouped again. The bulk pass walks the parent's previous rows, so it runs only
    /// while they are held (with before-images a large change is followed row by row, or
    /// grouped again past an eighth of the rows).
    private func followed(_ update: SnapshotUpdate<Object>, previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        if let lastVersion, let changes = update.changes(since: lastVersion),
           let edits = followable(changes, to: update.snapshot, own: previous.snapshot),
           let old = OldRows.reader(held: lastSnapshot, sectionCount: lastShapes.count, update: update, since: lastVersion) {
            // Many rows: one merge pass (O(n)); else a search per row (O(k log² n)).
            let followed = OrderLabels.isBulk(touched: changes.rowChangeCount, count: update.snapshot.objectCount)
                ? lastSnapshot.flatMap { followInBulk(edits, from: $0, to: update.snapshot, own: previous.snapshot) } : nil
            if let (snapshot, ownChanges) = followed
                ?? (changes.rowChangeCount > 64 && changes.rowChangeCount * 8 > update.snapshot.objectCount
                    ? nil : follow(edits, old: old, to: update.snapshot, own: previous.snapshot)) {
                return ownChanges.isEmpty ? previous : previous.next(snapshot, changes: ownChanges)
            }
        }
        return regrouped(update.snapshot, previous: previous)
    }

    /// `parent` grouped from scratch, diffed against `previous` (O(n)).
    private func regrouped(_ parent: Snapshot<Object>, previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let snapshot = regroup(parent)
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

    /// The parent's `changes` read as row edits, when they can be followed (only rows
    /// changed, the parent keeps objects, the grouping is in step with `own`).
    private func followable(_ changes: ChangeSet, to new: Snapshot<Object>, own: Snapshot<Object>) -> ParentChanges? {
        guard changes.touchesOnlyRows, lastShapes.count == new.sections.count, parentLabels.count == lastShapes.count,
              !keys.isEmpty, new.objectCount > 0, own.sections.count == keys.count else { return nil }
        return ParentChanges(changes, oldShapes: lastShapes, new: new)
    }

    private func follow(
        _ edits: ParentChanges, old: (Int) -> OldRows<Object>?, to new: Snapshot<Object>, own: Snapshot<Object>
    ) -> (Snapshot<Object>, ChangeSet)? {
        // 1. Where the rows that leave or change are now (old own positions).
        var departures: [Departure] = []
        var arrivals: [Arrival] = []
        var inPlace: [(key: Key, label: RowLabel, object: Object)] = []
        var departureOfMove: [RowPath: Int] = [:]
        let movedFrom = Set(edits.moves.map { $0.from })
        for (section, sectionEdits) in edits.rows {
            guard let oldObjects = old(section) else { return nil }
            for item in sectionEdits.removed {
                guard let object = oldObjects[item] else { return nil }
                let path = RowPath(item: item, section: section)
                if !movedFrom.isEmpty && movedFrom.contains(path) { departureOfMove[path] = departures.count }
                departures.append(Departure(key: key(object), label: RowLabel(section: section, value: parentLabels[section][item]), object: object, parentPath: path))
            }
            for (oldItem, newItem) in sectionEdits.updated {
                guard let before = oldObjects[oldItem] else { return nil }
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
            // Taken out of the table so the edit is in place, not a path copy: when this pass
            // gives way (nil), the caller groups from scratch and rebuilds every label.
            var sectionLabels = parentLabels[section]
            parentLabels[section] = RowStorage()
            guard let made = OrderLabels.follow(&sectionLabels, removed: sectionEdits.removed, added: sectionEdits.added) else { return nil }
            for (item, value) in zip(sectionEdits.added, made) {
                let object = new.sections[section].objects[item]
                let path = RowPath(item: item, section: section)
                arrivals.append(Arrival(key: key(object), label: RowLabel(section: section, value: value), object: object, parentPath: path, departure: nil))
            }
            parentLabels[section] = sectionLabels
        }
        var arrivalAt: [RowPath: Int] = [:]
        for (index, arrival) in arrivals.enumerated() {
            if let path = arrival.parentPath { arrivalAt[path] = index }
        }
        for move in edits.moves {
            guard let departure = departureOfMove[move.from], let arrival = arrivalAt[move.to] else { return nil }
            arrivals[arrival].departure = departure
        }
        // 3. Edit the touched sections: changes in place, then removals, then insertions.
        var touched: [Key: RowStorage<Object>] = [:]
        func load(_ sectionKey: Key) {
            if touched[sectionKey] == nil { touched[sectionKey] = keyIndex[sectionKey].map { own.sections[$0].objects } ?? [] }
        }
        for change in inPlace {
            guard let rows = labels[change.key], let position = position(of: change.label, in: rows) else { return nil }
            load(change.key)
            touched[change.key]![position] = change.object
        }
        var smallestLeft = Set<Key>()
        for (sectionKey, positions) in Dictionary(grouping: departures, by: { $0.key }).mapValues({ $0.map { $0.position }.sorted(by: >) }) {
            load(sectionKey)
            for position in positions {
                loops.remove(position..<(position + 1), &touched[sectionKey]!)
                let label = labels[sectionKey]!.remove(at: position)
                if objectOrder != nil && smallestLabels[sectionKey] == label { smallestLeft.insert(sectionKey) }
            }
        }
        for sectionKey in smallestLeft { smallestLabels[sectionKey] = labels[sectionKey]!.min() }
        for arrival in arrivals {
            if objectOrder != nil, smallestLabels[arrival.key].map({ arrival.label < $0 }) ?? true { smallestLabels[arrival.key] = arrival.label }
            load(arrival.key)
            // Taken out while it changes, so the insert edits it in place (no path copy).
            var rows = labels.removeValue(forKey: arrival.key) ?? []
            let position = insertionPoint(of: arrival.label, object: arrival.object, labels: rows, objects: touched[arrival.key]!)
            rows.insert(arrival.label, at: position)
            loops.insert(arrival.object, position, &touched[arrival.key]!)
            labels[arrival.key] = rows
        }
        let oldKeys = keys
        let oldIndex = keyIndex
        var newKeys: [Key] = []
        for arrival in arrivals where oldIndex[arrival.key] == nil && !newKeys.contains(arrival.key) { newKeys.append(arrival.key) }
        let emptied = touched.filter { $0.value.isEmpty }.map { $0.key }
        for sectionKey in emptied {
            labels[sectionKey] = nil
            titles[sectionKey] = nil
            smallestLabels[sectionKey] = nil
        }
        // Sections stay as they were (only rows changed) unless one appeared or emptied, or
        // (in first-appearance order) a touched section's first row now orders it elsewhere.
        let layoutKept = newKeys.isEmpty && emptied.isEmpty && touched.keys.allSatisfy { keepsItsPlace($0) }
        if !layoutKept {
            keys = ordered(oldKeys.filter { !(touched[$0]?.isEmpty ?? false) } + newKeys)
            keyIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
        func objects(_ sectionKey: Key) -> RowStorage<Object>? {
            touched[sectionKey] ?? oldIndex[sectionKey].map { own.sections[$0].objects }
        }
        // 4. The change set, in old and new section indexes.
        var result = ChangeSet()
        if !layoutKept {
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
        }
        let newIndex = keyIndex
        func newPath(_ sectionKey: Key, _ label: RowLabel, _ object: Object) -> RowPath? {
            guard let index = newIndex[sectionKey], oldIndex[sectionKey] != nil, let rows = labels[sectionKey], let sectionObjects = objects(sectionKey),
                  let position = position(of: label, object: object, in: rows, objects: sectionObjects) else { return nil }
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
        var sections: [SnapshotSection<Object>]
        if layoutKept {
            sections = own.sections
            for (sectionKey, rows) in touched { sections[newIndex[sectionKey]!].objects = rows }
        } else {
            sections = keys.map { sectionKey in
                let sectionTitle = title(of: sectionKey)
                return SnapshotSection(id: sectionTitle, title: sectionTitle, objects: objects(sectionKey)!)
            }
        }
        return (Snapshot(sections: sections), result)
    }

    /// Whether the section of `sectionKey` (present, not empty) still stands where the
    /// section order puts it: before and after its neighbours by the order of keys, or, for
    /// keys it ranks equal (and in first-appearance order), by their smallest labels.
    func keepsItsPlace(_ sectionKey: Key) -> Bool {
        guard let index = keyIndex[sectionKey] else { return false }
        let order = sectionOrder.areInIncreasingOrder
        func staysBefore(_ first: Key, _ second: Key) -> Bool {
            if let order {
                if order(first, second) { return true }
                if order(second, first) { return false }
            }
            return firstLabel(of: first) < firstLabel(of: second)
        }
        if index > 0 && !staysBefore(keys[index - 1], sectionKey) { return false }
        if index + 1 < keys.count && !staysBefore(sectionKey, keys[index + 1]) { return false }
        return true
    }

    /// The title of `sectionKey`'s section, computed once per key.
    private func title(of sectionKey: Key) -> String {
        if let known = titles[sectionKey] { return known }
        let computed = title(sectionKey)
        titles[sectionKey] = computed
        return computed
    }

    /// Orders section keys: by the section order, else by where each key first appears.
    /// Keys the section order ranks equal are ordered by first appearance, as in a grouping
    /// from scratch, so the order never depends on the history of edits.
    private func ordered(_ sectionKeys: [Key]) -> [Key] {
        let byAppearance = sectionKeys.map { ($0, firstLabel(of: $0)) }.sorted { $0.1 < $1.1 }.map { $0.0 }
        guard let order = sectionOrder.areInIncreasingOrder else { return byAppearance }
        return byAppearance.sorted(by: order)
    }

    /// The smallest label of a section: its first row's, or, with rows ordered by object,
    /// the one kept in `smallestLabels`. O(1).
    func firstLabel(of sectionKey: Key) -> RowLabel {
        let none = RowLabel(section: .max, value: .max)
        if objectOrder != nil { return smallestLabels[sectionKey] ?? none }
        guard let rows = labels[sectionKey], !rows.isEmpty else { return none }
        return rows[0]
    }

    /// The position of the row labelled `label` in a section ordered by label only.
    private func position(of label: RowLabel, in rows: RowStorage<RowLabel>) -> Int? {
        let index = rows.partitioningIndex { !($0 < label) }
        return index < rows.count && rows[index] == label ? index : nil
    }

    /// The position of the row (`label`, `object`) in the section of `key` of `own`.
    private func position(of label: RowLabel, object: Object, in rows: RowStorage<RowLabel>, own: Snapshot<Object>, key sectionKey: Key) -> Int? {
        guard objectOrder != nil else { return position(of: label, in: rows) }
        guard let index = keyIndex[sectionKey] else { return nil }
        return position(of: label, object: object, in: rows, objects: own.sections[index].objects)
    }

    private func position(of label: RowLabel, object: Object, in rows: RowStorage<RowLabel>, objects: RowStorage<Object>) -> Int? {
        guard objectOrder != nil else { return position(of: label, in: rows) }
        let index = lowerBound(rows.count) { precedes(objects[$0], rows[$0], object, label) }
        return index < rows.count && rows[index] == label ? index : nil
    }

    /// Where the row (`label`, `object`) goes in a section.
    private func insertionPoint(of label: RowLabel, object: Object, labels rows: RowStorage<RowLabel>, objects: RowStorage<Object>) -> Int {
        guard objectOrder != nil else { return rows.partitioningIndex { !($0 < label) } }
        return lowerBound(rows.count) { precedes(objects[$0], rows[$0], object, label) }
    }

    /// The order of rows inside a section: the object order if any, then the parent's order.
    func precedes(_ lhs: Object, _ lhsLabel: RowLabel, _ rhs: Object, _ rhsLabel: RowLabel) -> Bool {
        guard let objectOrder else { return lhsLabel < rhsLabel }
        // Labels break ties, so one call of the order decides.
        return lhsLabel < rhsLabel ? !objectOrder(rhs, lhs) : objectOrder(lhs, rhs)
    }

    /// The first index in `0..<count` for which `isBefore` is false (`isBefore` must be true
    /// on a prefix).
    private func lowerBound(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        (0..<count).partitioningIndex { !isBefore($0) }
    }

    // MARK: Grouping from scratch

    /// Groups everything from scratch and labels every row. O(n) plus sorting sections (and
    /// rows within sections, if ordered).
    private func regroup(_ snapshot: Snapshot<Object>) -> Snapshot<Object> {
        var groupOf: [Key: Int] = [:]
        var firstSeen: [Key] = []
        var groupObjects: [RowStorageBuilder<Object>] = []
        var groupLabels: [RowStorageBuilder<RowLabel>] = []
        parentLabels = []
        for (sectionIndex, section) in snapshot.sections.enumerated() {
            parentLabels.append(RowStorage((0..<section.objects.count).lazy.map(OrderLabels.fromScratch)))
            keyLoops.group(section.objects, sectionIndex, &groupOf, &firstSeen, &groupObjects, &groupLabels)
        }
        keys = sectionOrder.areInIncreasingOrder.map { firstSeen.sorted(by: $0) } ?? firstSeen
        keyIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        titles = [:]
        labels = [:]
        smallestLabels = [:]
        var sections: [SnapshotSection<Object>] = []
        sections.reserveCapacity(keys.count)
        for sectionKey in keys {
            let group = groupOf[sectionKey].unsafelyUnwrapped
            var objects = groupObjects[group].finish()
            var rowLabels = groupLabels[group].finish()
            if let objectOrder {
                // Labels were added in parent order: the first is the smallest.
                smallestLabels[sectionKey] = rowLabels.first
                let unordered = ContiguousArray(objects)
                let unorderedLabels = ContiguousArray(rowLabels)
                let order = unordered.indices.sorted { lhs, rhs in
                    objectOrder(unordered[lhs], unordered[rhs]) || (!objectOrder(unordered[rhs], unordered[lhs]) && lhs < rhs)
                }
                // Arrays first: a storage built from a lazy map in this generic code would look
                // up runtime metadata for every row.
                objects = RowStorage(order.map { unordered[$0] })
                rowLabels = RowStorage(order.map { unorderedLabels[$0] })
            }
            labels[sectionKey] = rowLabels
            let sectionTitle = title(of: sectionKey)
            sections.append(SnapshotSection(id: sectionTitle, title: sectionTitle, objects: objects))
        }
        if sections.isEmpty { sections = NodePlaceholders.sections(showingPlaceholderOf: snapshot) }
        return Snapshot(sections: sections)
    }
}

/// Where a row stands in its parent: its section, and a number that grows along the section.
@usableFromInline
struct RowLabel: Comparable, Hashable, Sendable {
    @usableFromInline var section: Int
    @usableFromInline var value: UInt64

    @inlinable
    init(section: Int, value: UInt64) {
        self.section = section
        self.value = value
    }

    @inlinable
    static func < (lhs: RowLabel, rhs: RowLabel) -> Bool {
        (lhs.section, lhs.value) < (rhs.section, rhs.value)
    }

    /// What `Dictionary` and `Set` hash a label with: the per-table seed and both fields
    /// through SplitMix64's finaliser (a few multiplies) instead of SipHash. Labels are plain
    /// numbers chosen by the library, never by a client, so there is no collision attack to
    /// resist; the finaliser still spreads every input bit over the low bits a table uses.
    @inlinable
    func _rawHashValue(seed: Int) -> Int {
        var bits = value ^ (UInt64(UInt(bitPattern: section)) &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(UInt(bitPattern: seed))
        bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: bits ^ (bits >> 31))
    }
}
