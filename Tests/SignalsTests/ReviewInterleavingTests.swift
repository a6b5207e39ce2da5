import Foundation
import Signals
import Testing

/// Review of issue 22: a derived property whose run reads `limit` for the first time, then
/// waits (its lock released) for a property another thread is modifying; that thread
/// writes `limit` meanwhile. Unobserved, the next read recomputes (the run's dependency
/// records the version it saw). Observed, it used not to: the node links to `limit` when its
/// run ends, after the write, which marked nothing; `DerivedNode.recompute` now takes a
/// watched node whose new dependency moved during the run as stale ("Locking" in Graph.swift).
@Suite("Signals: a write while a run waits for another component (review)")
struct ReviewInterleavingTests {
    @Test(.timeLimit(.minutes(1))) func anObservedDerivedPropertyDoesNotLoseAWriteMadeWhileItWaits() {
        let limit = MutableProperty(10)
        let other = MutableProperty(0)
        let trigger = MutableProperty(false)
        let atOther = DispatchSemaphore(value: 0)
        let modifying = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let shown = Property { () -> Bool in
            guard trigger.value else { return true }
            let bound = limit.value
            atOther.signal()
            _ = other.value
            return 5 < bound
        }
        let subscription = shown.observe { _ in }
        defer { subscription.cancel() }
        let writer = Thread {
            other.modify { value in
                modifying.signal()
                atOther.wait()
                limit.value = 1
                value += 1
            }
            done.signal()
        }
        writer.start()
        modifying.wait()
        trigger.value = true
        done.wait()
        #expect(shown.value == false)
    }
}
