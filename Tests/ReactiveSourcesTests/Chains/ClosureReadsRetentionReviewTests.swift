import Foundation
import Testing
import ReactiveSources
@testable import Signals

/// What a derived source's record of the properties its closures read (``ReadRecord``)
/// keeps. Rows that each carry a property (a per-row "favourite" switch) read by the
/// predicate: the record cannot tell which row read what, so it keeps the properties of
/// removed rows until a full pass, which runs once it holds more than twice what the last
/// full pass read, plus 64. With no reads, nothing is kept.
@Suite("Chains: what the record of closure reads keeps (review)")
struct ClosureReadsRetentionReviewTests {
    final class Photo: Hashable, Sendable {
        let id: Int
        let isFavourite = MutableProperty(true)
        init(id: Int) { self.id = id }
        static func == (lhs: Photo, rhs: Photo) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    final class WeakNode: @unchecked Sendable {
        weak var node: AnyObject?
        init(_ node: AnyObject) { self.node = node }
    }

    /// Appends a row, shows it, removes it again; returns a weak reference to the node of
    /// its property.
    static func churn(_ source: SimpleDataSource<Photo>, id: Int, chain: SectionedDataSource<Photo, Int>) -> WeakNode {
        let photo = Photo(id: id)
        let weak = WeakNode(photo.isFavourite.node)
        source.append([photo])
        _ = chain.snapshot
        _ = try? source.remove(at: source.objects.count - 1)
        _ = chain.snapshot
        return weak
    }

    @Test(arguments: [false, true])
    func aRemovedRowsPropertyIsFreed(predicateReadsIt: Bool) {
        let source = SimpleDataSource<Photo>(name: "photos", objects: [])
        let chain = source
            .filter { photo in predicateReadsIt ? photo.isFavourite.value : photo.id >= 0 }
            .sorted { $0.id < $1.id }
            .sectioned(by: { $0.id % 2 })
        let subscription = chain.updates.observe { _ in }
        defer { subscription.cancel() }
        var gone: [WeakNode] = []
        for id in 0..<300 { gone.append(Self.churn(source, id: id, chain: chain)) }
        // A few more updates, so that no snapshot version still holds the removed rows.
        for id in 100..<103 { source.append([Photo(id: id)]) }
        _ = chain.snapshot
        let kept = gone.filter { $0.node != nil }.count
        // The filter's record: what its last full pass read (at most the 3 rows left, twice)
        // plus 64, plus the row of the update that found it overfull. Without the bound: 300.
        #expect(kept <= (predicateReadsIt ? 2 * 3 + 65 : 0), "\(kept) of 300 removed rows' properties are still alive (predicate reads them: \(predicateReadsIt))")
    }
}
