import Foundation
import Signals
@testable import ReactiveSources

/// A source of the objects 0..<10 that records the rows it is told are displayed.
final class DisplaySpy: DataSource, @unchecked Sendable {
    let inner = SimpleDataSource(objects: Array(0..<10))
    private let lock = NSLock()
    private var paths: [RowPath] = []
    var displayed: [RowPath] { lock.withLock { paths } }
    var name: String { "spy" }
    var updates: Property<SnapshotUpdate<Int>> { inner.updates }
    var loadState: Property<LoadState> { inner.loadState }
    var loadEvents: Signal<LoadEvent> { inner.loadEvents }
    func fetchData() {}
    func cancelFetch() {}
    func willDisplayRow(at path: RowPath) { lock.withLock { paths.append(path) } }
}
