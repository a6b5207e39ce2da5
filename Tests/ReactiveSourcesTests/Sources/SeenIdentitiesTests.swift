import Testing
@testable import ReactiveSources

/// The duplicate rule against a model: random pages, some dropped from the front as
/// `maxPages` drops them, checked against "keep an object unless an equal one is kept".
@Suite("Paginated duplicate rule")
struct SeenIdentitiesTests {
    /// Hashes to one of `buckets` values, so distinct values often share a hash value.
    struct Clashing: Hashable, Sendable {
        let id: Int
        let buckets: Int
        static func == (a: Clashing, b: Clashing) -> Bool { a.id == b.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id % buckets) }
    }

    /// Runs `steps` random pages (and drops) through `seen`, checking each page's new objects.
    func check(_ seen: SeenIdentities<Clashing>, buckets: Int, seed: UInt64, steps: Int) {
        var random = SeededGenerator(seed: seed)
        var pages: [[Clashing]] = [] // the kept objects, page by page
        for step in 0..<steps {
            // Drop some of the oldest pages, as `maxPages` does before a page is checked.
            if !pages.isEmpty, Int.random(in: 0..<4, using: &random) == 0 {
                let dropped = Int.random(in: 1...pages.count, using: &random)
                seen.forget(pages.prefix(dropped).flatMap { $0 })
                pages.removeFirst(dropped)
            }
            let page = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                Clashing(id: Int.random(in: 0..<30, using: &random), buckets: buckets)
            }
            let kept = pages.flatMap { $0 }
            var expected: [Clashing] = []
            for object in page where !kept.contains(object) && !expected.contains(object) { expected.append(object) }
            let fresh = seen.insertNew(page) { kept[$0] }
            #expect(fresh.map(\.id) == expected.map(\.id), "seed \(seed), step \(step)")
            pages.append(fresh)
            if Int.random(in: 0..<40, using: &random) == 0 {
                seen.removeAll()
                pages = []
            }
        }
    }

    @Test(arguments: [1, 3, 1_000])
    func objectsAsIdentity(buckets: Int) {
        for seed in 1...20 as ClosedRange<UInt64> {
            check(.objects(), buckets: buckets, seed: seed, steps: 200)
        }
    }

    @Test(arguments: [1, 3, 1_000])
    func keysAsIdentity(buckets: Int) {
        for seed in 21...40 as ClosedRange<UInt64> {
            check(.keys { $0 }, buckets: buckets, seed: seed, steps: 200)
        }
    }

    @Test func aRepeatedPageIsAllDuplicates() {
        let seen = SeenIdentities<Int>.objects()
        let page = Array(0..<50)
        #expect(seen.insertNew(page) { _ in Issue.record("nothing shown yet"); return 0 } == page)
        #expect(seen.insertNew(page) { page[$0] }.isEmpty)
        #expect(seen.insertNew([50, 3, 51, 50]) { page[$0] } == [50, 51])
    }
}
