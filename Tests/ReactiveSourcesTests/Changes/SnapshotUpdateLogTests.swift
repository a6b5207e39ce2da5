import Foundation
@testable import ReactiveSources
import ReactiveSourcesTesting
import Testing

/// `SnapshotUpdate`'s history: `changes` is the newest entry of its change log (not a second
/// copy), the log is trimmed without losing its head, and `changes(since:)` bridges every
/// version it keeps. Also a lookup shared by two updates that publish one snapshot value.
@Suite("SnapshotUpdate change log")
struct SnapshotUpdateLogTests {
    /// A random edit of the rows of a one-section snapshot: inserts, removes and replaces
    /// (rows only, so that change sets compose).
    static func edited(_ snapshot: Snapshot<Int>, nextValue: inout Int, using random: inout SplitMix64) -> Snapshot<Int> {
        var objects = Array(snapshot.sections[0].objects)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                nextValue += 1
                objects.insert(nextValue, at: Int.random(in: 0...objects.count, using: &random))
            case 1 where !objects.isEmpty:
                objects.remove(at: Int.random(in: objects.indices, using: &random))
            default:
                guard !objects.isEmpty else { continue }
                nextValue += 1
                objects[Int.random(in: objects.indices, using: &random)] = nextValue
            }
        }
        var next = snapshot
        next.sections[0].objects = RowStorage(objects)
        return next
    }

    @Test func theNewestChangeSetSurvivesTrimmingAndEveryKeptVersionIsBridged() throws {
        var random = SplitMix64(seed: 0x10C_4EAD)
        var nextValue = 19
        let start = Snapshot(sections: [SnapshotSection(id: "s", objects: RowStorage(Array(0...nextValue)))])
        var update = SnapshotUpdate(snapshot: start)
        var history: [UInt64: Snapshot<Int>] = [update.version: start]
        for step in 0..<400 {
            let old = update.snapshot
            let new = Self.edited(old, nextValue: &nextValue, using: &random)
            let changes = ChangeSet(from: old, to: new)
            if step % 2 == 0 {
                update = update.next(new, changes: changes)
            } else {
                // In place, as a source's engine does.
                update.snapshot.sections = new.sections
                update.advance(changes)
            }
            history[update.version] = update.snapshot
            #expect(update.changes == changes, "step \(step): changes is the last change set")
            for back: UInt64 in [1, 2, 10, 63, 64] where back <= update.version {
                let from = update.version - back
                let bridged = try #require(update.changes(since: from), "step \(step): \(back) versions back is kept")
                let old = try #require(history[from])
                #expect(bridged.applied(to: old, valuesFrom: update.snapshot) == update.snapshot,
                        "step \(step): the change since \(back) versions back turns that snapshot into this one")
            }
            if update.version >= 130 {
                #expect(update.changes(since: update.version - 130) == nil, "step \(step): 130 versions back is not kept")
            }
        }
    }

    @Test func aSnapshotPublishedByTwoUpdatesAnswersLookupsFromItsOneSharedLookup() {
        // Two updates, each with a built lookup of a different snapshot, publish the same
        // snapshot value: both link its one (shared) lookup; the first link wins.
        let first = Snapshot(sections: [SnapshotSection(id: "s", objects: RowStorage([1, 2, 3, 4, 5]))])
        let second = Snapshot(sections: [SnapshotSection(id: "s", objects: RowStorage([9, 8, 3, 7]))])
        var a = SnapshotUpdate(snapshot: first)
        var b = SnapshotUpdate(snapshot: second)
        #expect(a.snapshot.path(of: 3) == RowPath(item: 2, section: 0))
        #expect(b.snapshot.path(of: 3) == RowPath(item: 2, section: 0))
        let shared = Snapshot(sections: [SnapshotSection(id: "s", objects: RowStorage([3, 5, 8, 10, 1]))])
        let mismatchesBefore = LookupStatistics.mismatches.load(ordering: .relaxed)
        a = a.next(shared, changes: ChangeSet(from: first, to: shared))
        b = b.next(shared, changes: ChangeSet(from: second, to: shared))
        #expect(a.snapshot.lookup === b.snapshot.lookup, "one lookup, shared by the two published values")
        for (item, value) in [3, 5, 8, 10, 1].enumerated() {
            #expect(a.snapshot.path(of: value) == RowPath(item: item, section: 0))
            #expect(b.snapshot.path(of: value) == RowPath(item: item, section: 0))
        }
        for absent in [2, 4, 9, 7, 11] {
            #expect(a.snapshot.path(of: absent) == nil)
            #expect(b.snapshot.path(of: absent) == nil)
        }
        #expect(LookupStatistics.mismatches.load(ordering: .relaxed) == mismatchesBefore, "no answer contradicted the snapshot")
    }
}
