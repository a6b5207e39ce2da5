import Foundation
import Testing
@testable import Signals

private final class RelinkBox: @unchecked Sendable {
    var runs = 0
    var wrote = false
}

/// `DerivedNode.relink(to:in:)` walks `reads`, a buffer into the thread's `collected` stack.
/// A dependency that gains its first subscriber there is settled at once (the thread is not
/// settling yet), which validates it and may run its closure: a closure that diverges from its
/// last run pushes its reads on `collected`, which can grow (reallocate) and leave `reads`
/// pointing to freed memory. AddressSanitizer reported the next read of `reads` (CI runs
/// this suite under it); `relink` now asks for the reads again after each step.
@Suite("Relinking while a dependency recomputes")
struct RelinkDuringSettleTests {
    @Test func aDependencySettledDuringRelinkThatCollectsManyReads() {
        let done = DispatchSemaphore(value: 0)
        let outcome = RelinkOutcome()
        // A fresh thread: its graph's `collected` starts at 16 elements.
        let thread = Thread {
            let source = MutableProperty(0)
            let others = (0..<64).map { MutableProperty($0) }
            let useInner = MutableProperty(false)
            let box = RelinkBox()
            let inner = Property<Int> {
                box.runs += 1
                var sum = source.value
                // From its second run on: reads 64 more nodes (diverges from the first run).
                if box.runs >= 2 { for other in others { sum += other.value } }
                return sum
            }
            let outer = Property<Int> {
                guard useInner.value else { return -1 }
                let value = inner.value
                // Once: `inner` is out of date when `outer` links to it, so it recomputes then.
                if !box.wrote { box.wrote = true; source.value = 1 }
                return value
            }
            let recorder = LockedValues()
            let subscription = outer.observe { recorder.append($0) }
            useInner.value = true
            outcome.innerSubscribers = inner.subscriberCount
            outcome.sourceSubscribers = source.subscriberCount
            outcome.last = outer.value
            withExtendedLifetime(subscription) {}
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(outcome.innerSubscribers == 1)
        #expect(outcome.sourceSubscribers == 1)
        #expect(outcome.last == 1 + (0..<64).reduce(0, +))
    }
}

private final class RelinkOutcome: @unchecked Sendable {
    var innerSubscribers = -1
    var sourceSubscribers = -1
    var last = -1
}

private final class LockedValues: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func append(_ value: Int) { lock.withLock { values.append(value) } }
}
