import Foundation
import ReactiveSources

/// The Paginated source's own cost per page, without a socket or JSON: 100 pages of 50
/// `FixtureItem`s (as the fixture server makes them) served from memory, driven by
/// ``ListDriver`` as the HTTP case's list side is. The fetcher suspends once per page
/// (`Task.yield`), as a network fetch does. Under callgrind every instruction counted is
/// the source's, its tasks' or the driver's; `reactive-profile pages list <runs>`.
public enum SourcePagesProfile {
    /// What drives the pages (`reactive-profile pages <side>`).
    public enum Side: String, Sendable {
        /// ``ListDriver`` over ``FixtureItem``s.
        case list
        /// The same over ``IdentifiedFixtureItem``s (the duplicate rule hashes ids).
        case listIdentified = "list-identified"
        /// The list keeps the last snapshot it was given, as a list's data source does.
        case listHolding = "list-holding"
        /// No source: the fetcher awaited page after page, the objects appended to an array
        /// (what the source's whole per-page cost is measured against).
        case loop
    }

    /// Runs `side` `iterations` times. `evicting`: bytes the fetcher writes over before each
    /// page (stride 64), so the source meets a cache as cold as after a network round trip
    /// (the `-cold` suffix).
    public static func run(_ side: Side, iterations: Int, evicting: Int = 0) async throws -> String {
        switch side {
        case .list, .listHolding:
            return try await run(FixtureItem.self, iterations: iterations, evicting: evicting) {
                try await ListDriver.drive(PaginatedDataSource(name: "items", fetcher: $0), expecting: $1, holdingSnapshot: side == .listHolding, onUpdate: $2)
            }
        case .listIdentified:
            return try await run(IdentifiedFixtureItem.self, iterations: iterations, evicting: evicting) {
                try await ListDriver.drive(PaginatedDataSource(name: "items", fetcher: $0), expecting: $1, onUpdate: $2)
            }
        case .loop:
            return try await run(FixtureItem.self, iterations: iterations, evicting: evicting) { fetcher, total, _ in
                var objects: [FixtureItem] = []
                var token: PageToken? = .first
                while let current = token {
                    let page = try await fetcher.fetchPage(current)
                    objects.append(contentsOf: page.objects)
                    token = page.next
                }
                check(objects.count == total, "loop: \(objects.count) objects")
            }
        }
    }

    static func run<Item: FixtureFields>(
        _: Item.Type, iterations: Int, evicting: Int,
        drive: (ClosurePageFetcher<Item>, Int, @escaping @Sendable () -> Void) async throws -> Void
    ) async throws -> String {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: max(64, evicting), alignment: 64)
        let scratchAddress = UInt(bitPattern: scratch.baseAddress)
        defer { scratch.deallocate() }
        let pages = 100, pageSize = 50
        let book: [Page<Item>] = (1...pages).map { number in
            let items = ((number - 1) * pageSize + 1...number * pageSize).map {
                Item(id: $0, title: "Item \($0)", group: "G\($0 % 3)")
            }
            let info = PageInfo(page: number, pageSize: pageSize, numberOfPages: pages, totalCount: pages * pageSize)
            return Page(objects: items, info: info, next: number < pages ? .number(number + 1) : nil)
        }
        let stamps = Stamps()
        let fetcher = ClosurePageFetcher<Item> { token in
            await Task.yield()
            if evicting > 0, let base = UnsafeMutableRawPointer(bitPattern: scratchAddress) {
                for offset in stride(from: 0, to: evicting, by: 64) { base.storeBytes(of: UInt8(truncatingIfNeeded: offset), toByteOffset: offset, as: UInt8.self) }
            }
            let page: Page<Item>
            switch token {
            case .first: page = book[0]
            case .number(let number) where (1...pages).contains(number): page = book[number - 1]
            default: throw BenchFailure("unexpected token \(token)")
            }
            // As a decoder would leave them: the page's objects in cache.
            check(page.objects.reduce(0) { $0 &+ $1.id &+ $1.title.utf8.count &+ $1.group.utf8.count } != 0, "page objects")
            stamps.returned()
            return page
        }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations {
            try await drive(fetcher, pages * pageSize) { stamps.observed() }
        }
        let elapsed = clock.now - start
        let delays = stamps.delays().sorted()
        let median = delays.isEmpty ? 0 : delays[delays.count / 2]
        return "pages list: \(iterations) x \(pages) pages in \(elapsed); page returned to observer called: median \(format(median * 1e6, 2)) µs"
    }

    /// The time from the fetcher's return to the list's observer, page by page.
    final class Stamps: @unchecked Sendable {
        private let lock = NSLock()
        private var last: UInt64 = 0
        private var gaps: [Double] = []

        func returned() { lock.withLock { last = DispatchTime.now().uptimeNanoseconds } }

        func observed() {
            let now = DispatchTime.now().uptimeNanoseconds
            lock.withLock {
                if last != 0 { gaps.append(Double(now - last) / 1e9) }
                last = 0
            }
        }

        func delays() -> [Double] { lock.withLock { gaps } }
    }
}
