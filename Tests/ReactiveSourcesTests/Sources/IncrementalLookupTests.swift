import Foundation
@testable import ReactiveSources
import ReactiveSourcesTesting
import Testing

/// `Snapshot.path(of:)` built incrementally from the previous version's lookup
/// (`ObjectLookup`, `LookupNode`): same answers as from scratch, no full rebuild per version,
/// no old row storage kept alive.
@Suite("Incremental reverse lookup")
struct IncrementalLookupTests {
    /// An identified object: the same `id` with another `version` is an edit (an updated row).
    struct Item: Hashable, Identifiable, Sendable {
        var id: Int
        var version: Int
    }

    /// The from-scratch answer: every path holding `object`, in order.
    static func occurrences<Object>(of object: Object, in snapshot: Snapshot<Object>) -> [RowPath] {
        var paths: [RowPath] = []
        for (section, content) in snapshot.sections.enumerated() {
            for (item, candidate) in content.objects.enumerated() where candidate == object {
                paths.append(RowPath(item: item, section: section))
            }
        }
        return paths
    }

    /// `path(of:)` agrees with a scan: `nil` for an absent object, the only path of a unique
    /// one, and a path that holds it for a repeated one.
    static func check<Object>(_ object: Object, in snapshot: Snapshot<Object>, _ comment: @autoclosure () -> String) {
        let expected = occurrences(of: object, in: snapshot)
        let found = snapshot.path(of: object)
        if expected.count <= 1 {
            #expect(found == expected.first, "\(comment()): \(object)")
        } else {
            #expect(found.map(expected.contains) == true, "\(comment()): \(object) repeated at \(expected), got \(String(describing: found))")
        }
    }

    /// A random edit of `snapshot`: inserts, removes, moves (within and across sections),
    /// edits of identified objects, repeated objects, placeholders, section inserts, deletes
    /// and moves, or a wholesale replace.
    static func edited(_ snapshot: Snapshot<Item>, nextID: inout Int, using random: inout SplitMix64) -> Snapshot<Item> {
        var sections = snapshot.sections
        func newItem() -> Item {
            nextID += 1
            return Item(id: nextID, version: 0)
        }
        let operations = Int.random(in: 1...3, using: &random)
        for _ in 0..<operations {
            let nonEmpty = sections.indices.filter { !sections[$0].objects.isEmpty }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25 where !sections.isEmpty:
                let section = Int.random(in: sections.indices, using: &random)
                let count = Int.random(in: 1...3, using: &random)
                var objects = Array(sections[section].objects)
                for _ in 0..<count {
                    objects.insert(newItem(), at: Int.random(in: 0...objects.count, using: &random))
                }
                sections[section].objects = RowStorage(objects)
            case 25..<45 where !nonEmpty.isEmpty:
                let section = nonEmpty.randomElement(using: &random)!
                var objects = Array(sections[section].objects)
                objects.remove(at: Int.random(in: objects.indices, using: &random))
                sections[section].objects = RowStorage(objects)
            case 45..<60 where !nonEmpty.isEmpty:
                let from = nonEmpty.randomElement(using: &random)!
                var source = Array(sections[from].objects)
                let object = source.remove(at: Int.random(in: source.indices, using: &random))
                sections[from].objects = RowStorage(source)
                let to = Int.random(in: sections.indices, using: &random)
                var target = Array(sections[to].objects)
                target.insert(object, at: Int.random(in: 0...target.count, using: &random))
                sections[to].objects = RowStorage(target)
            case 60..<75 where !nonEmpty.isEmpty:
                let section = nonEmpty.randomElement(using: &random)!
                var objects = Array(sections[section].objects)
                let index = Int.random(in: objects.indices, using: &random)
                objects[index].version += 1
                sections[section].objects = RowStorage(objects)
            case 75..<80 where !nonEmpty.isEmpty:
                // A repeated object: a copy of an existing one elsewhere.
                let from = nonEmpty.randomElement(using: &random)!
                let object = sections[from].objects.randomElement(using: &random)!
                let to = Int.random(in: sections.indices, using: &random)
                var target = Array(sections[to].objects)
                target.insert(object, at: Int.random(in: 0...target.count, using: &random))
                sections[to].objects = RowStorage(target)
            case 80..<84 where !sections.isEmpty:
                let section = Int.random(in: sections.indices, using: &random)
                sections[section].placeholder = sections[section].placeholder == nil ? .loading : nil
            case 84..<90:
                let objects = (0..<Int.random(in: 0...4, using: &random)).map { _ in newItem() }
                nextID += 1
                let section = SnapshotSection(id: "s\(nextID)", objects: objects)
                sections.insert(section, at: Int.random(in: 0...sections.count, using: &random))
            case 90..<94 where !sections.isEmpty:
                sections.remove(at: Int.random(in: sections.indices, using: &random))
            case 94..<97 where sections.count > 1:
                let section = sections.remove(at: Int.random(in: sections.indices, using: &random))
                sections.insert(section, at: Int.random(in: 0...sections.count, using: &random))
            case 97..<100:
                sections = [SnapshotSection(id: "s0", objects: (0..<Int.random(in: 0...20, using: &random)).map { _ in newItem() })]
            default:
                break
            }
        }
        return Snapshot(sections: sections)
    }

    @Test func modelBasedRandomUpdatesAnswerAsFromScratch() {
        let seed: UInt64 = 0x5EED_0020
        var links = 0
        var folded = 0
        var lookedUp = 0
        for sequence in 0..<2_000 {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            var nextID = 0
            let start = (0..<Int.random(in: 0...30, using: &random)).map { _ in
                nextID += 1
                return Item(id: nextID, version: 0)
            }
            var update = SnapshotUpdate(snapshot: Snapshot(sections: [SnapshotSection(id: "s0", objects: start)]))
            var seen: [Item] = start
            let lookUpPercent = [100, 85, 40, 5][sequence % 4]
            for step in 0..<30 {
                let old = update.snapshot
                let new = Self.edited(old, nextID: &nextID, using: &random)
                let changes = ChangeSet(from: old, to: new)
                if random.chance(50) {
                    update = update.next(new, changes: changes)
                } else {
                    // In place, as a source's engine does.
                    update.snapshot.sections = new.sections
                    update.advance(changes)
                }
                seen.append(contentsOf: new.allObjects)
                // Sometimes nobody looks this version up (the next lookup bridges the skipped
                // versions, or starts from scratch after too many or after section changes).
                guard random.chance(lookUpPercent) else { continue }
                let label = "seed \(seed) sequence \(sequence) step \(step)"
                for _ in 0..<4 where !seen.isEmpty {
                    Self.check(seen.randomElement(using: &random)!, in: update.snapshot, label)
                }
                for object in update.snapshot.allObjects.shuffled(using: &random).prefix(3) {
                    Self.check(object, in: update.snapshot, label)
                }
                Self.check(Item(id: -1, version: 0), in: update.snapshot, label)
                lookedUp += 1
                if let node = update.snapshot.lookup.builtNode, !node.isTable {
                    links += 1
                    if node.depth < step { folded += 1 }
                }
            }
        }
        #expect(LookupStatistics.mismatches.load(ordering: .relaxed) == 0, "no incremental answer contradicted its snapshot")
        // Most versions were answered through links (not rebuilt), many of them folded.
        #expect(links * 2 > lookedUp, "\(links) of \(lookedUp) lookups through links")
        #expect(folded * 4 > lookedUp, "\(folded) of \(lookedUp) lookups through folded links")
    }

    @Test func sourcesPublishingChangeSetsAnswerAsFromScratch() throws {
        // A Simple source's own change sets (not diffs) and a Sectioned source over it, whose
        // grouper looks rows up in its parent.
        let seed: UInt64 = 0x5EED_0021
        for sequence in 0..<150 {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            var next = 0
            let source = SimpleDataSource(objects: (0..<40).map { _ in next += 1; return next })
            let sectioned = SectionedDataSource(child: source, key: { $0 % 5 })
            for step in 0..<40 {
                let count = source.objects.count
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    next += 1
                    source.append([next])
                case 1:
                    next += 1
                    try source.insert([next, next + 1000], at: Int.random(in: 0...count, using: &random))
                case 2 where count > 0:
                    _ = try source.remove(at: Int.random(in: 0..<count, using: &random))
                case 3 where count > 1:
                    try source.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
                case 4 where count > 0:
                    next += 1
                    try source.replace(at: Int.random(in: 0..<count, using: &random), with: next)
                default:
                    if random.chance(20) { source.replaceObjects(with: source.objects.shuffled(using: &random)) }
                }
                let label = "seed \(seed) sequence \(sequence) step \(step)"
                for object in [Int.random(in: 1...next, using: &random), next, -1] {
                    Self.check(object, in: source.snapshot, label)
                    Self.check(object, in: sectioned.snapshot, label)
                }
            }
        }
    }

    @Test func lookingUpAfterEveryUpdateDoesNotRebuildTheTableEachVersion() throws {
        let count = 20_000
        let source = SimpleDataSource(objects: Array(0..<count))
        var next = count
        var random = SplitMix64(seed: 20)
        var tables = 0
        var deepest = 0
        let versions = 500
        for _ in 0..<versions {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                source.append([next, next + 1])
                next += 2
            case 1:
                _ = try source.remove(at: Int.random(in: 0..<source.snapshot.objectCount, using: &random))
            case 2:
                let rows = source.snapshot.objectCount
                try source.move(from: Int.random(in: 0..<rows, using: &random), to: Int.random(in: 0..<rows, using: &random))
            default:
                try source.insert([next], at: Int.random(in: 0...source.snapshot.objectCount, using: &random))
                next += 1
            }
            let snapshot = source.snapshot
            let object = snapshot.allObjects[Int.random(in: 0..<snapshot.objectCount, using: &random)]
            #expect(snapshot.object(at: try #require(snapshot.path(of: object))) == object)
            let node = try #require(snapshot.lookup.builtNode)
            if node.isTable { tables += 1 }
            deepest = max(deepest, node.depth)
        }
        // The first lookup builds the table; later versions link to it (a few changes each,
        // far from half of 20,000 rows).
        #expect(tables == 1)
        #expect(deepest <= 16, "binary-counter folding keeps chains short: \(deepest)")
    }

    @Test func aSnapshotThatIsNeverLookedUpBuildsNothing() {
        let source = SimpleDataSource(objects: Array(0..<1_000))
        for value in 0..<10 { source.append([1_000 + value]) }
        #expect(source.snapshot.lookup.builtNode == nil)
        _ = source.snapshot.path(of: 3)
        source.append([5_000])
        // Linked to the built lookup, but nothing is built until asked.
        #expect(source.snapshot.lookup.builtNode == nil)
        #expect(source.snapshot.path(of: 5_000) == RowPath(item: 1_010, section: 0))
        #expect(source.snapshot.lookup.builtNode?.isTable == false)
        // Versions nobody looked up are bridged (their change sets composed)...
        for value in 0..<5 { source.append([6_000 + value]) }
        #expect(source.snapshot.path(of: 6_004) == RowPath(item: 1_015, section: 0))
        #expect(source.snapshot.lookup.builtNode?.isTable == false)
        // ...up to `maxPendingVersions` of them; then nothing is kept, and the table is rebuilt.
        for value in 0..<(ObjectLookup<Int>.maxPendingVersions + 1) { source.append([7_000 + value]) }
        #expect(source.snapshot.lookup.builtNode == nil)
        #expect(source.snapshot.path(of: 7_000) == RowPath(item: 1_016, section: 0))
        #expect(source.snapshot.lookup.builtNode?.isTable == true)
    }

    @Test func aLookupChainDoesNotKeepOldSnapshotsStorageAlive() throws {
        weak var firstRoot: RowStorageNode<Int>?
        var update: SnapshotUpdate<Int>
        do {
            // Every version in its own storage (no nodes shared between versions).
            let first = Snapshot(sections: [SnapshotSection(id: "s", objects: Array(0..<5_000))])
            firstRoot = first.sections[0].objects.root
            #expect(firstRoot != nil)
            update = SnapshotUpdate(snapshot: first)
            #expect(update.snapshot.path(of: 4_999) == RowPath(item: 4_999, section: 0))
            for version in 1...5 {
                let next = Snapshot(sections: [SnapshotSection(id: "s", objects: Array(0..<(5_000 + version)))])
                update = update.next(next, changes: .insertedRows((5_000 + version - 1)..<(5_000 + version), inSection: 0))
                #expect(update.snapshot.path(of: 5_000 + version - 1) == RowPath(item: 5_000 + version - 1, section: 0))
                #expect(update.snapshot.path(of: 7) == RowPath(item: 7, section: 0))
            }
        }
        let node = try #require(update.snapshot.lookup.builtNode)
        #expect(!node.isTable, "the latest lookup is a link back to the first version's table")
        #expect(firstRoot == nil, "the first snapshot's storage was freed although its lookup is still used")
    }

    @Test func lookupsOnSeveralThreadsWhileTheSourcePublishes() async {
        // Readers share the snapshots (and their lookups) the writer publishes: every answer
        // must be a path holding the object, whichever thread builds or links a lookup.
        let source = SimpleDataSource(objects: Array(0..<2_000))
        _ = source.snapshot.path(of: 0)
        let wrong = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for value in 0..<300 {
                    source.append([2_000 + value])
                    if value % 7 == 0 { try? source.move(from: value, to: 1_000) }
                }
                return 0
            }
            for reader in 0..<3 {
                group.addTask {
                    var random = SplitMix64(seed: UInt64(reader))
                    var wrong = 0
                    for _ in 0..<600 {
                        let snapshot = source.snapshot
                        let value = Int.random(in: 0..<(snapshot.objectCount), using: &random)
                        guard let path = snapshot.path(of: value), snapshot.object(at: path) == value else {
                            wrong += 1
                            continue
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        #expect(LookupStatistics.mismatches.load(ordering: .relaxed) == 0)
    }

    @Test func repeatedObjectsAnswerAPathHoldingThem() {
        var update = SnapshotUpdate(snapshot: Snapshot(sections: [SnapshotSection(id: "s", objects: [1, 2, 1, 3, 1])]))
        #expect(update.snapshot.path(of: 1) == RowPath(item: 0, section: 0), "from scratch: the first occurrence")
        // Remove the tracked (first) occurrence: the lookup must still find a remaining one.
        var next = update.snapshot
        next.sections[0].objects = RowStorage([2, 1, 3, 1])
        update = update.next(next, changes: ChangeSet(from: update.snapshot, to: next))
        #expect(update.snapshot.path(of: 1) == RowPath(item: 1, section: 0))
        next = update.snapshot
        next.sections[0].objects = RowStorage([2, 3, 1, 4])
        update = update.next(next, changes: ChangeSet(from: update.snapshot, to: next))
        #expect(update.snapshot.path(of: 1) == RowPath(item: 2, section: 0))
        #expect(update.snapshot.path(of: 4) == RowPath(item: 3, section: 0))
        #expect(update.snapshot.path(of: 9) == nil)
    }
}
