import Foundation
import ReactiveSources

/// The Paginated source's own cost per page, without a socket or JSON: 100 pages of 50
/// `FixtureItem`s (as the fixture server makes them) served from memory, driven by
/// ``ListDriver`` as the HTTP case's list side is. The fetcher suspends once per page
/// (`Task.yield`), as a network fetch does. Under callgrind every instruction counted is
/// the source's, its tasks' or the driver's; `reactive-profile pages list <runs>`.
public enum SourcePagesProfile {
    public static func run(iterations: Int) async throws -> String {
        let pages = 100, pageSize = 50
        let book: [Page<FixtureItem>] = (1...pages).map { number in
            let items = ((number - 1) * pageSize + 1...number * pageSize).map {
                FixtureItem(id: $0, title: "Item \($0)", group: "G\($0 % 3)")
            }
            let info = PageInfo(page: number, pageSize: pageSize, numberOfPages: pages, totalCount: pages * pageSize)
            return Page(objects: items, info: info, next: number < pages ? .number(number + 1) : nil)
        }
        let fetcher = ClosurePageFetcher<FixtureItem> { token in
            await Task.yield()
            switch token {
            case .first: return book[0]
            case .number(let number) where (1...pages).contains(number): return book[number - 1]
            default: throw BenchFailure("unexpected token \(token)")
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations {
            try await ListDriver.drive(PaginatedDataSource(name: "items", fetcher: fetcher), expecting: pages * pageSize)
        }
        return "pages list: \(iterations) x \(pages) pages in \(clock.now - start)"
    }
}
