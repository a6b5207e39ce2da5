import Foundation
import Testing
@testable import Signals

/// A `ReadRecord` recording outside any closure tracks reads with no lock held between
/// them: the repeated-read shortcuts (``Graph/repeatedSource``, ``Graph/repeatedDerived``),
/// which assume the running computation holds its lock throughout, must not outlive a read.
/// (Found by a review of 5d35683; older than it.)
@Suite("Repeated reads recorded outside any closure")
struct RecordedRepeatedReadTests {
    /// An unwatched derived property read three times (the first places it, the second
    /// validates it in its component, the third finds it validated and makes it the repeated
    /// derived read), then written upstream by another thread: the next read sees the write.
    @Test(.timeLimit(.minutes(1)))
    func aRepeatedDerivedReadSeesAnotherThreadsWrite() async {
        let reads = await onOwnThread { () -> [Int] in
            let source = MutableProperty(1)
            let derived = Property { source.value &* 10 }
            let record = ReadRecord()
            return record.recording {
                let first = derived.value
                let second = derived.value
                let third = derived.value
                let written = DispatchSemaphore(value: 0)
                Thread {
                    source.value = 2
                    written.signal()
                }.start()
                written.wait()
                return [first, second, third, derived.value]
            }
        }
        #expect(reads == [10, 10, 10, 20], "a read returned a value from before a write that had returned")
    }

    /// A source read again in the recording while another thread's `modify` body is in
    /// progress: the read waits for the modify (it takes the lock), and so gets its result,
    /// not what the unlocked field holds meanwhile (a race with the modify).
    @Test(.timeLimit(.minutes(1)))
    func aRepeatedSourceReadWaitsForAModify() async {
        let read = await onOwnThread { () -> Int in
            let source = MutableProperty(0)
            let record = ReadRecord()
            let inBody = DispatchSemaphore(value: 0)
            let aboutToRead = DispatchSemaphore(value: 0)
            let finish = DispatchSemaphore(value: 0)
            return record.recording {
                _ = source.value
                Thread {
                    source.modify { value in
                        value = 1
                        inBody.signal()
                        finish.wait()
                        value = 2
                    }
                }.start()
                // Ends the modify once this thread is about to read: a read that takes the
                // lock waits for it and gets 2; one without the lock reads the field while
                // the modify runs.
                Thread {
                    aboutToRead.wait()
                    finish.signal()
                }.start()
                inBody.wait()
                aboutToRead.signal()
                return source.value
            }
        }
        #expect(read == 2, "read \(read) while a modify body held the lock")
    }
}
