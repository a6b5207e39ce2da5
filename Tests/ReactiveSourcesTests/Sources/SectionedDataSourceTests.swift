import Foundation
import Signals
import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

@Suite("Sectioned data source")
struct SectionedDataSourceTests {
    struct Person: Hashable, Sendable {
        let name: String
        let team: String
    }

    @Test func groupsAllObjectsWithTheSameKeyNotOnlyAdjacentOnes() {
        let child = SimpleDataSource(name: "people", objects: ["ant", "bee", "asp", "cat", "bat"])
        let sectioned = SectionedDataSource(child: child, key: { String($0.prefix(1)) })
        #expect(sectioned.snapshot.sections.map(\.title) == ["a", "b", "c"])
        #expect(sectioned.snapshot.sections.map { Array($0.objects) } == [["ant", "asp"], ["bee", "bat"], ["cat"]])
    }

    @Test func sortedSectionsAndObjects() {
        let child = SimpleDataSource(name: "p", objects: [
            Person(name: "Zoe", team: "red"), Person(name: "Al", team: "blue"), Person(name: "Bo", team: "red"),
        ])
        let sectioned = SectionedDataSource(child: child, keyPath: \.team, sectionOrder: .ascending, objectOrder: { $0.name < $1.name })
        #expect(sectioned.snapshot.sections.map(\.title) == ["blue", "red"])
        #expect(sectioned.snapshot.sections[1].objects.map(\.name) == ["Bo", "Zoe"])
    }

    @Test func regroupsOnPartialLoadsIncrementally() async {
        let fetcher = ScriptedFetcher<String>()
        let remote = RemoteDataSource(name: "words", fetcher: fetcher)
        let sectioned = SectionedDataSource(child: remote, key: { String($0.prefix(1)) })
        let seen = Recorder<SnapshotUpdate<String>>()
        let subscription = sectioned.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        let log = EventLog(sectioned)
        sectioned.fetchData()
        #expect(sectioned.snapshot.sections.first?.placeholder == .loading, "the child's loading row shows while empty")
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].deliver(["apple", "banana"])
        await eventually("first batch", until: sectioned) { sectioned.snapshot.objectCount == 2 }
        fetcher.calls[0].deliver(["avocado", "cherry"])
        // Wait for the observer, not a pull read: the writing thread may still be delivering.
        await eventually("second batch observed", until: seen) { seen.values.last?.snapshot.objectCount == 4 }
        #expect(sectioned.snapshot.sections.map { Array($0.objects) } == [["apple", "avocado"], ["banana"], ["cherry"]])
        let last = seen.values.last!
        #expect(last.changes.insertedRows == [RowPath(item: 1, section: 0)])
        #expect(last.changes.insertedSections == [2])
        fetcher.calls[0].finish()
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didPartiallyLoad, .didPartiallyLoad, .didFinishLoading], "child events are forwarded")
        let all = seen.values
        for (old, new) in zip(all, all.dropFirst()) where new.version == old.version + 1 {
            #expect(new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot)
            #expect(BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot).isEmpty)
        }
    }

    @Test func forwardsChildErrors() async {
        let fetcher = ScriptedFetcher<String>()
        let sectioned = SectionedDataSource(child: RemoteDataSource(name: "w", fetcher: fetcher), key: { $0.count })
        let log = EventLog(sectioned)
        sectioned.fetchData()
        await eventually("call", until: fetcher) { fetcher.calls.count == 1 }
        fetcher.calls[0].fail(TestFailure("nope"))
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didFail(.other(TestFailure("nope")))])
        #expect(sectioned.loadState.value.error == .other(TestFailure("nope")))
    }

    @Test func randomEditsAlwaysProduceValidChangeSets() throws {
        var random = SystemRandomNumberGenerator()
        let child = SimpleDataSource<Int>(name: "n")
        let sectioned = SectionedDataSource(child: child, key: { $0 % 7 }, sectionOrder: .ascending)
        let seen = Recorder<SnapshotUpdate<Int>>()
        let subscription = sectioned.updates.observe { seen.append($0) }
        defer { subscription.cancel() }
        for _ in 0..<300 {
            let count = child.objects.count
            switch Int.random(in: 0..<4, using: &random) {
            case 0: child.append((0..<Int.random(in: 0...4, using: &random)).map { _ in Int.random(in: 0..<1000, using: &random) })
            case 1 where count > 0: try child.remove(at: Int.random(in: 0..<count, using: &random))
            case 2 where count > 1: try child.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
            default: try child.insert([Int.random(in: 0..<1000, using: &random)], at: Int.random(in: 0...count, using: &random))
            }
        }
        let all = seen.values
        for (old, new) in zip(all, all.dropFirst()) {
            #expect(new.changes.applied(to: old.snapshot, valuesFrom: new.snapshot) == new.snapshot)
            #expect(BatchUpdateValidator.stagedViolations(of: new.changes, from: old.snapshot, to: new.snapshot).isEmpty)
        }
        let expected = Dictionary(grouping: child.objects, by: { $0 % 7 })
        #expect(sectioned.snapshot.sections.map { Array($0.objects) } == expected.keys.sorted().map { expected[$0]! })
    }

    /// `Int` keys take a path of their own (compiled for `Int`); it, and the generic path with
    /// `String` keys, group exactly like the same keys wrapped in another type.
    @Test(arguments: [1, 5, 300])
    func intKeysGroupLikeAnyOtherKeyType(keyCount: Int) {
        struct Wrapped: Hashable, Comparable, Sendable {
            var value: Int
            static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
        }
        let objects = (0..<5_000).map { ($0 * 7919) % 5_003 }
        let orders: [(SectionOrder<Int>, SectionOrder<Wrapped>)] = [(.ascending, .ascending), (.descending, .descending), (.firstAppearance, .firstAppearance)]
        for (intOrder, wrappedOrder) in orders {
            let child = SimpleDataSource(name: "n", objects: objects)
            let byInt = SectionedDataSource(child: child, key: { $0 % keyCount - keyCount / 2 }, sectionOrder: intOrder)
            let byWrapped = SectionedDataSource(child: child, key: { Wrapped(value: $0 % keyCount - keyCount / 2) }, sectionOrder: wrappedOrder)
            #expect(byInt.snapshot.sections.count == keyCount)
            #expect(byInt.snapshot.sections.map { Array($0.objects) } == byWrapped.snapshot.sections.map { Array($0.objects) })
            #expect(byInt.snapshot.sections.map(\.title) == byInt.snapshot.sections.map { String($0.objects[0] % keyCount - keyCount / 2) })
            child.append([5_003 + keyCount])
            #expect(byInt.snapshot.sections.map { Array($0.objects) } == byWrapped.snapshot.sections.map { Array($0.objects) })
        }
        let stringOrders: [(SectionOrder<String>, SectionOrder<Wrapped>)] = [(.ascending, .ascending), (.firstAppearance, .firstAppearance)]
        for (stringOrder, wrappedOrder) in stringOrders {
            // Fixed-width names, so that string order is number order.
            let child = SimpleDataSource(name: "s", objects: objects)
            let byString = SectionedDataSource(child: child, key: { "k" + String(1_000 + $0 % keyCount) }, sectionOrder: stringOrder)
            let byWrapped = SectionedDataSource(child: child, key: { Wrapped(value: 1_000 + $0 % keyCount) }, sectionOrder: wrappedOrder)
            #expect(byString.snapshot.sections.count == keyCount)
            #expect(byString.snapshot.sections.map { Array($0.objects) } == byWrapped.snapshot.sections.map { Array($0.objects) })
            #expect(byString.snapshot.sections.map(\.title) == byString.snapshot.sections.map { "k" + String(1_000 + $0.objects[0] % keyCount) })
        }
    }

    @Test(arguments: [3, 128, 129, 700])
    func groupsLikeDictionaryGroupingAcrossChildSections(keyCount: Int) {
        // Several child sections (one per Multi child), reference-counted objects, and both
        // the direct scatter (up to 128 sections) and the buffered one (more).
        let children = (0..<3).map { c in
            SimpleDataSource(name: "c\(c)", objects: (0..<2_000).map { "\(c)-\(($0 * 7919) % 2_000)" })
        }
        let multi = MultiDataSource(children: children)
        let key: @Sendable (String) -> Int = { Int($0.split(separator: "-")[1])! % keyCount }
        let all = children.flatMap(\.objects)
        let expected = Dictionary(grouping: all, by: key)

        let sorted = SectionedDataSource(child: multi, key: key, sectionOrder: .descending)
        #expect(sorted.snapshot.sections.map(\.title) == expected.keys.sorted(by: >).map { String(describing: $0) })
        #expect(sorted.snapshot.sections.map { Array($0.objects) } == expected.keys.sorted(by: >).map { expected[$0]! })

        var firstSeen: [Int] = []
        for object in all where !firstSeen.contains(key(object)) { firstSeen.append(key(object)) }
        let unsorted = SectionedDataSource(child: multi, key: key)
        #expect(unsorted.snapshot.sections.map(\.title) == firstSeen.map { String(describing: $0) })
        #expect(unsorted.snapshot.sections.map { Array($0.objects) } == firstSeen.map { expected[$0]! })
        #expect(unsorted.snapshot.path(of: all[4_321]) != nil)
    }

    @Test func lifecycleContract() async {
        await checkLifecycleContract(of: SectionedDataSource(child: SimpleDataSource(name: "x", objects: ["a"]), key: { $0 }))
    }
}
