import Foundation
import Signals

/// Groups a child's objects into keyed sections; the body of a Sectioned source's derived
/// snapshot. Its bookkeeping is touched only from that closure, which runs serially.
final class Grouper<Object: Hashable & Sendable, Key: Hashable & Sendable>: @unchecked Sendable {
    private let child: any DataSource<Object>
    private let key: @Sendable (Object) -> Key
    private let title: @Sendable (Key) -> String
    private let sectionOrder: SectionOrder<Key>
    private let objectOrder: (@Sendable (Object, Object) -> Bool)?

    /// The child update last grouped, and the keys of the sections, in order.
    private var lastChild: SnapshotUpdate<Object>?
    private var keys: [Key] = []
    private var sectionIndex: [Key: Int] = [:]

    init(
        child: any DataSource<Object>,
        key: @escaping @Sendable (Object) -> Key,
        title: @escaping @Sendable (Key) -> String,
        sectionOrder: SectionOrder<Key>,
        objectOrder: (@Sendable (Object, Object) -> Bool)?
    ) {
        self.child = child
        self.key = key
        self.title = title
        self.sectionOrder = sectionOrder
        self.objectOrder = objectOrder
    }

    func group(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let update = child.updates.value
        guard update.version != lastChild?.version || lastChild == nil else { return previous }
        defer { lastChild = update }
        if let lastChild, let appended = appendedObjects(from: lastChild, to: update), !keys.isEmpty {
            return append(appended, to: previous)
        }
        let snapshot = regroup(update.snapshot)
        return previous.next(snapshot, changes: ChangeSet(from: previous.snapshot, to: snapshot))
    }

    /// The objects the child appended, when its update is exactly "k objects appended at the
    /// end of its last section, placeholder unchanged or gone".
    private func appendedObjects(from old: SnapshotUpdate<Object>, to new: SnapshotUpdate<Object>) -> Slice<RowStorage<Object>>? {
        guard objectOrder == nil, new.version == old.version &+ 1 else { return nil }
        let changes = new.changes
        guard changes.touchesOnlyRows, changes.movedRows.isEmpty, changes.updatedRows.isEmpty else { return nil }
        let oldSections = old.snapshot.sections
        let newSections = new.snapshot.sections
        guard oldSections.count == newSections.count, let last = newSections.indices.last else { return nil }
        let oldCount = oldSections[last].objects.count
        let newObjects = newSections[last].objects
        guard newObjects.count >= oldCount, oldCount > 0 else { return nil }
        // Every inserted row must be in the last section, at or after the old end; the only
        // deletion allowed is the old placeholder row.
        for path in changes.insertedRows where path.section != last || path.item < oldCount { return nil }
        for path in changes.deletedRows where path.section != last || path.item != oldCount || oldSections[last].placeholder == nil {
            return nil
        }
        return newObjects[oldCount...]
    }

    /// Appends objects to their sections (creating new ones as needed). O(k + sections).
    private func append(_ objects: Slice<RowStorage<Object>>, to previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        var sections = previous.snapshot.sections
        let oldSectionCount = sections.count
        var oldCounts: [Int: Int] = [:]
        var newKeys: [Key] = []
        var pendingNew: [Key: [Object]] = [:]
        for object in objects {
            let objectKey = key(object)
            if let index = sectionIndex[objectKey] {
                if oldCounts[index] == nil { oldCounts[index] = sections[index].objects.count }
                sections[index].objects.append(object)
            } else {
                if pendingNew[objectKey] == nil { newKeys.append(objectKey) }
                pendingNew[objectKey, default: []].append(object)
            }
        }
        var changes = ChangeSet()
        if newKeys.isEmpty {
            for (index, oldCount) in oldCounts {
                changes.insertedRows.append(contentsOf: (oldCount..<sections[index].objects.count).map { RowPath(item: $0, section: index) })
            }
        } else {
            let oldKeys = keys
            keys.append(contentsOf: newKeys)
            if let order = sectionOrder.areInIncreasingOrder {
                let sortedNew = newKeys.sorted(by: order)
                keys = merge(oldKeys, sortedNew, by: order)
            }
            var bySection: [Key: SnapshotSection<Object>] = [:]
            for (index, section) in sections.enumerated() { bySection[oldKeys[index]] = section }
            sections = keys.map { key in
                bySection[key] ?? SnapshotSection(id: title(key), title: title(key), objects: pendingNew[key] ?? [])
            }
            sectionIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
            for (newIndex, key) in keys.enumerated() {
                if pendingNew[key] != nil {
                    changes.insertedSections.append(newIndex)
                }
            }
            for (oldIndex, oldCount) in oldCounts {
                let newIndex = sectionIndex[oldKeys[oldIndex]]!
                changes.insertedRows.append(contentsOf: (oldCount..<sections[newIndex].objects.count).map { RowPath(item: $0, section: newIndex) })
            }
        }
        _ = oldSectionCount
        changes.normalize()
        return previous.next(Snapshot(sections: sections), changes: changes)
    }

    /// Merges two sorted key lists.
    private func merge(_ left: [Key], _ right: [Key], by order: (Key, Key) -> Bool) -> [Key] {
        var result: [Key] = []
        result.reserveCapacity(left.count + right.count)
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            if order(right[j], left[i]) {
                result.append(right[j])
                j += 1
            } else {
                result.append(left[i])
                i += 1
            }
        }
        result.append(contentsOf: left[i...])
        result.append(contentsOf: right[j...])
        return result
    }

    /// Groups everything from scratch. O(n) plus sorting sections (and objects, if ordered).
    ///
    /// A counting sort in two passes: the first numbers and counts each object's key
    /// (``KeyNumbering``), the second copies every object once into its section's array
    /// (``scatter(_:groupOf:counts:order:)``). The per-object work touches only raw pointers:
    /// this code runs unspecialized for the client's types, where every `Array` append
    /// fetches generic metadata from the runtime and a `Dictionary` lookup costs ~3x its
    /// hashing.
    private func regroup(_ snapshot: Snapshot<Object>) -> Snapshot<Object> {
        // 4-byte group numbers: half the memory of Ints for the largest scratch buffer here.
        // 2^32 or more sections would trap; their bookkeeping alone would not fit in memory.
        let groupOf = UnsafeMutablePointer<UInt32>.allocate(capacity: snapshot.objectCount)
        defer { groupOf.deallocate() }
        let (groupKeys, occurrences) = numberKeys(of: snapshot, into: groupOf)
        var order = Array(groupKeys.indices)
        if let areInIncreasingOrder = sectionOrder.areInIncreasingOrder {
            order.sort { areInIncreasingOrder(groupKeys[$0], groupKeys[$1]) }
        }
        keys = order.map { groupKeys[$0] }
        sectionIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })

        let groups = scatter(snapshot.sections, groupOf: groupOf, counts: occurrences, order: order)
        var sections = zip(order, groups).map { group, objects -> SnapshotSection<Object> in
            let sectionTitle = title(groupKeys[group])
            return SnapshotSection(id: sectionTitle, title: sectionTitle, objects: objectOrder.map { stableSorted(objects, by: $0) } ?? objects)
        }
        if sections.isEmpty, let placeholder = snapshot.sections.last?.placeholder {
            sections = [SnapshotSection(id: "", title: nil, objects: [], placeholder: placeholder)]
        }
        return Snapshot(sections: sections)
    }

    /// Numbers each object's key in order of first appearance into `groupOf` (one entry per
    /// object, in snapshot order); returns the distinct keys and their counts, by number.
    ///
    /// `Int` keys (the most common kind) take a path compiled for `Int`: this code is not
    /// specialised for the client's `Key`, and hashing and comparing keys through the
    /// protocol witnesses was most of a regroup's time. (The same for `String` keys measured
    /// slower: 738 M instructions against 705 M for 1M objects, the hashing dominates.)
    private func numberKeys(of snapshot: Snapshot<Object>, into groupOf: UnsafeMutablePointer<UInt32>) -> (keys: [Key], occurrences: [Int]) {
        if Key.self == Int.self, let intKey = key as? @Sendable (Object) -> Int {
            let numbering = KeyNumbering<Int>()
            number(snapshot, into: groupOf) { numbering.record(intKey($0)) }
            return (numbering.allKeys as! [Key], numbering.allOccurrences)
        }
        let numbering = KeyNumbering<Key>()
        number(snapshot, into: groupOf) { numbering.record(key($0)) }
        return (numbering.allKeys, numbering.allOccurrences)
    }

    @inline(__always)
    private func number(_ snapshot: Snapshot<Object>, into groupOf: UnsafeMutablePointer<UInt32>, by record: (Object) -> Int) {
        var position = 0
        for section in snapshot.sections {
            section.objects.withChunks { objects in
                guard let base = objects.baseAddress else { return }
                for offset in 0..<objects.count {
                    groupOf[position + offset] = UInt32(record(base[offset]))
                }
                position += objects.count
            }
        }
    }

    private func stableSorted(_ objects: [Object], by order: (Object, Object) -> Bool) -> [Object] {
        objects.enumerated().sorted { lhs, rhs in
            if order(lhs.element, rhs.element) { return true }
            if order(rhs.element, lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
