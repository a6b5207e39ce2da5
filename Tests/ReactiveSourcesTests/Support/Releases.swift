import Foundation
import Signals
import Testing

/// Wakes a wait when the sources a test dropped are released.
///
/// A release sends no event (the library's fetch tasks may hold a source, or its fetcher, a
/// moment after it was dropped), and nothing here may hook `deinit` of the library's types.
/// So the test hands each source a ``ReleaseToken`` through something the source owns for
/// its whole life: its fetcher, or a closure it keeps (`identity`, a `ClosureFetcher`'s
/// body). The token is freed no earlier than the source (and, in a fetcher, no earlier than
/// the fetch tasks that hold it); its `deinit` wakes the waits on its ``Releases``. The
/// token only says when to look: ``stillAlive(_:after:sourceLocation:)`` then checks the
/// weak references, so the test proves that the source itself is gone.
final class Releases: Wakes, @unchecked Sendable {
    private let lock = NSLock()
    private var live: [UInt64: String] = [:]
    private var nextID: UInt64 = 0
    private let pulse = Pulse()

    /// A new token named `name` (what holds it), alive until its last holder lets it go.
    func token(_ name: String) -> ReleaseToken {
        let id: UInt64 = lock.withLock {
            nextID &+= 1
            live[nextID] = name
            return nextID
        }
        return ReleaseToken(id: id, releases: self)
    }

    /// The names of the tokens not released yet.
    var pending: [String] { lock.withLock { Array(live.values) } }

    fileprivate func released(_ id: UInt64) {
        _ = lock.withLock { live.removeValue(forKey: id) }
        pulse.poke()
    }

    func onChange(_ wake: @escaping @Sendable () -> Void) -> SignalSubscription { pulse.onChange(wake) }
}

/// Something a source holds for its whole life (see ``Releases``): its `deinit` reports the
/// release. Capture it with `withExtendedLifetime(token) { ... }` in the closure that holds
/// it, so the capture is a use the optimizer keeps.
final class ReleaseToken: Sendable {
    private let id: UInt64
    private let releases: Releases

    fileprivate init(id: UInt64, releases: Releases) {
        self.id = id
        self.releases = releases
    }

    deinit { releases.released(id) }
}

/// Waits until every token of `releases` is freed (woken by each release; the hang guard,
/// 120 s of pool time, records an issue for a token never freed), then returns the names of
/// the objects in `boxes` still alive: none, when the tokens' holders freed what they hold.
func stillAlive(_ boxes: [WeakBox], after releases: Releases, sourceLocation: SourceLocation = #_sourceLocation) async -> [String] {
    let released = await eventually(
        "every token released", wakers: [releases], condition: { releases.pending.isEmpty }, sourceLocation: sourceLocation
    )
    if !released { Issue.record("never released: \(releases.pending.sorted())", sourceLocation: sourceLocation) }
    return boxes.filter(\.isAlive).map(\.name)
}
