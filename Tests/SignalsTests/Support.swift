import Foundation
import Signals

/// A thread-safe list of values seen by observers in a test.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
}

/// A thread-safe counter (e.g. how many times a derived closure ran).
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0

    func increment() { add(1) }
    func add(_ amount: Int) { lock.withLock { storage += amount } }
    var value: Int { lock.withLock { storage } }
}

/// Something whose deallocation a weak reference can watch.
final class Token: Sendable {}

/// Runs `body` on `threads` threads at once and waits for all of them, suspending (not
/// blocking) the caller: Swift Testing runs tests, sync ones too, on the cooperative pool (one
/// thread per core, two on CI), and a test blocking a pool thread for seconds holds it from
/// every other suite's tasks.
///
/// `body` (and what it captures) is released before this returns: a thread's closure is freed
/// only some time after the thread exits, so the threads hold it through a box emptied here.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let box = BodyBox(body)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            Thread {
                box.body?(index)
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) {
            box.release()
            continuation.resume()
        }
    }
}

/// A closure that can be dropped while others still hold the box.
private final class BodyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (@Sendable (Int) -> Void)?

    init(_ body: @escaping @Sendable (Int) -> Void) { stored = body }

    var body: (@Sendable (Int) -> Void)? { lock.withLock { stored } }

    func release() { lock.withLock { stored = nil } }
}

/// Runs `body` on a new thread and returns its result without blocking a thread of the
/// cooperative pool (tests that block on semaphores must not starve the tasks they wait for).
@discardableResult
func onOwnThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// An observation of `source` (no first value) held only by ``box``, counting its calls,
/// whose closure captures a token: ``isReleased`` once the closure is freed. `then` runs
/// after each count, inside the call, with the box (it may drop the subscription, block or
/// write).
final class WatchedObservation: @unchecked Sendable {
    let box = SubscriptionBox()
    let calls = Counter()
    private let token = WeakToken()

    init(_ source: Property<Int>, then: @escaping @Sendable (SubscriptionBox, Int) -> Void = { _, _ in }) {
        let strongToken = Token()
        token.object = strongToken
        let calls = self.calls
        let box = self.box
        box.subscription = source.observe(emitsCurrentValue: false) { value in
            _ = strongToken
            calls.increment()
            then(box, value)
        }
    }

    /// Drops the subscription's only reference.
    func drop() { box.subscription = nil }

    var isReleased: Bool { token.object == nil }
}

private final class WeakToken: @unchecked Sendable {
    weak var object: Token?
}

/// Writes `value` to `property` on a new thread and waits for the write to return (at most
/// 60 s, a hang guard: it returns as soon as it can take the lock). Whether it returned.
func writeOnAnotherThread(_ property: MutableProperty<Int>, _ value: Int) -> Bool {
    let written = DispatchSemaphore(value: 0)
    Thread {
        property.value = value
        written.signal()
    }.start()
    return written.wait(timeout: .now() + 60) == .success
}
