import Foundation
import Testing
@testable import Signals

/// Runs `body` on a new thread with a 512 KB stack and waits for it to finish.
private func onSmallStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
}

/// Results a test body on another thread reports back.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: Int] = [:]
    subscript(key: String) -> Int? {
        get { lock.withLock { storage[key] } }
        set { lock.withLock { storage[key] = newValue } }
    }
}

@Suite("Deep graphs")
struct DeepGraphTests {
    /// 100,000 nodes; 10,000 under ThreadSanitizer, which makes each node ~100x slower here:
    /// at full length these tests would hold the (process-wide) graph lock for over ten
    /// seconds at a time and time out other suites' deadlock checks. 10,000 levels of
    /// recursion would still overflow a 512 KB stack many times over.
    static let length = isThreadSanitized ? 10_000 : 100_000

    static var isThreadSanitized: Bool {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__tsan_init") != nil
    }

    @Test func aLongMapChainIsBuiltReadWrittenObservedAndReleasedOnASmallStack() {
        let outcome = Outcome()
        onSmallStack {
            let source = MutableProperty(0)
            var tail: Property<Int> = source.readOnly
            for _ in 0..<Self.length {
                tail = tail.map { $0 + 1 }
            }
            outcome["first read"] = tail.value
            source.value = 1
            outcome["read after write"] = tail.value
            let seen = Recorder<Int>()
            let subscription = tail.observe { seen.append($0) }
            source.value = 2
            outcome["observed"] = seen.values.last
            outcome["observed count"] = seen.count
            subscription.cancel()
            source.value = 3
            outcome["after cancel"] = seen.count
            outcome["source subscribers"] = source.subscriberCount
            weak let weakTail = tail
            tail = source.readOnly
            outcome["tail released"] = weakTail == nil ? 1 : 0
        }
        #expect(outcome["first read"] == Self.length)
        #expect(outcome["read after write"] == Self.length + 1)
        #expect(outcome["observed"] == Self.length + 2)
        #expect(outcome["observed count"] == 2)
        #expect(outcome["after cancel"] == 2)
        #expect(outcome["source subscribers"] == 0, "cancelling unlinks the whole chain")
        #expect(outcome["tail released"] == 1, "the chain is released")
    }

    @Test func aLongChainOfDerivedClosuresWithKnownInputsIsReleasedOnASmallStack() {
        let outcome = Outcome()
        onSmallStack {
            let source = MutableProperty(1)
            var tail: Property<Int> = source.readOnly
            for index in 0..<Self.length {
                tail = index.isMultiple(of: 2) ? tail.map { $0 } : tail.skipRepeats()
            }
            let seen = Recorder<Int>()
            let subscription = tail.observe { seen.append($0) }
            source.value = 5
            source.value = 5
            outcome["values"] = seen.values.reduce(0) { $0 * 10 + $1 }
            _ = subscription
        }
        #expect(outcome["values"] == 15)
    }
}
