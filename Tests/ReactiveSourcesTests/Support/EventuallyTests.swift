import Foundation
import Signals
import Testing

@Suite("eventually")
struct EventuallyTests {
    @Test func aChangeOnAnotherThreadWakesTheWait() async {
        let property = MutableProperty(0)
        let writer = Thread {
            for value in 1...1_000 { property.value = value }
        }
        writer.start()
        #expect(await eventually("the last write", until: property) { property.value == 1_000 })
    }

    @Test func aWaitOnARecorderEndsWithTheAppendThatMakesItTrue() async {
        let recorder = Recorder<Int>()
        let appender = Task.detached {
            for value in 0..<100 { recorder.append(value) }
        }
        #expect(await eventually("100 values", until: recorder) { recorder.count == 100 })
        await appender.value
    }

    @Test func aConditionThatHoldsWithoutAWakeUpIsReportedAsAMissingWaker() async {
        let unnamed = Locked(false)
        let checks = Recorder<Bool>()
        // False at the first check; true at the next, with no poke of the waker between.
        let end = await waitForCondition(wakers: [Pulse()], limit: 0.5, step: nil) {
            checks.append(true)
            if checks.count == 1 { unnamed.withLock { $0 = true } }
            return checks.count > 1 && unnamed.withLock { $0 }
        }
        #expect(end == .gaveUp(holdsNow: true), "the guard's end is not a check: eventually reports the missing waker")
    }
}
