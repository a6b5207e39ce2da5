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
        let waker = Pulse()
        unnamed.withLock { $0 = true }  // changed after the first check, with no poke
        await withKnownIssue {
            let checked = Recorder<Bool>()
            let held = await eventually("the unnamed flag", until: waker, limit: 0.5, {
                checked.append(true)
                return checked.count > 1 && unnamed.withLock { $0 }
            })
            #expect(!held)
        } matching: { issue in
            issue.description.contains("nothing woke the wait")
        }
    }
}
