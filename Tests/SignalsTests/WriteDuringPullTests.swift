import Foundation
import Testing
@testable import Signals

/// A delivery's pull may release its lock to wait for a component another thread holds
/// (see "Locking" in `Graph`). A write from a third thread meanwhile marks the observed node
/// stale and, finding the observer's call in progress, leaves that call a rerun note. If
/// the pull's run (which read the value from before the write) ends at the version already
/// delivered, the note must still be honoured: the node stays stale, and later writes stop
/// at a stale node, so nothing else would ever deliver to this observer again.
@Suite("A write while a delivery's pull waits")
struct WriteDuringPullTests {
    @Test(.timeLimit(.minutes(1))) func theObserverGetsTheValueWrittenWhileItsPullWaited() async throws {
        // One of them has a component ordered before the observed graph's (see below).
        let candidates = (0..<256).map { _ in MutableProperty(0) }
        let limit = MutableProperty(10)
        let trigger = MutableProperty(false)
        let atOther = DispatchSemaphore(value: 0)
        let modifying = DispatchSemaphore(value: 0)
        let finishModify = DispatchSemaphore(value: 0)
        let otherBox = OtherBox()
        let shown = Property { () -> Bool in
            let bound = limit.value
            if trigger.value, let other = otherBox.property {
                atOther.signal()
                _ = other.value
            }
            return 5 < bound
        }
        let seen = Recorder<Bool>()
        let subscription = shown.observe { seen.append($0) }
        defer { subscription.cancel() }
        // The waiting pull takes the two components' locks in one fixed order (that of
        // `Graph.lockJoined`): with `other`'s first, it waits for it holding nothing, so the
        // write below does not wait for the pull.
        let order = { (node: GraphNode) in UInt(bitPattern: ObjectIdentifier(node.component.root.takeUnretainedValue()).hashValue) }
        let other = try #require(candidates.first { order($0.node) < order(shown.node) }, "no component ordered before the observed one")
        otherBox.property = other
        // Holds `other`'s graph until told to finish.
        let holder = Thread {
            other.modify { value in
                modifying.signal()
                finishModify.wait()
                value += 1
            }
        }
        holder.start()
        modifying.wait()
        // Delivers `shown`'s observer, whose pull reads `limit` (10), then waits for `other`.
        let delivering = Task.detached { await onOwnThread { trigger.value = true } }
        atOther.wait()
        // Marks `shown` stale while the pull waits; the observer's call is in progress.
        await onOwnThread { limit.value = 1 }
        finishModify.signal()
        await delivering.value
        #expect(seen.values.last == false, "the observer kept the value from before the write: \(seen.values)")
        // A later write reaches it too.
        limit.value = 20
        limit.value = 0
        #expect(seen.values.last == false, "a later write did not reach the observer: \(seen.values)")
        #expect(seen.values.count >= 3, "the later writes were not delivered: \(seen.values)")
    }
}

private final class OtherBox: @unchecked Sendable {
    var property: MutableProperty<Int>?
}
