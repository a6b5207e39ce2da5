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

/// Ends an exit test's process with a failure naming every check that does not hold.
private func requireAll(_ checks: [(String, Bool)]) {
    let failed = checks.filter { !$0.1 }.map(\.0)
    if !failed.isEmpty {
        FileHandle.standardError.write(Data("failed: \(failed.joined(separator: ", "))\n".utf8))
        exit(1)
    }
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
    /// at full length these tests would take tens of seconds each. 10,000 levels of
    /// recursion would still overflow a 512 KB stack many times over.
    static let length = isThreadSanitized ? 10_000 : 100_000

    static var isThreadSanitized: Bool {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__tsan_init") != nil
    }

    /// Each test runs in a child process (an exit test): a stack overflow there fails the test
    /// instead of the whole test run, and the chain's seconds of work (and memory) stay out of
    /// the process where the other suites run.
    @Test func aLongMapChainIsBuiltReadWrittenObservedAndReleasedOnASmallStack() async {
        await #expect(processExitsWith: .success) {
            let outcome = Outcome()
            onSmallStack {
                let source = MutableProperty(0)
                var tail: Property<Int> = source.readOnly
                for _ in 0..<DeepGraphTests.length {
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
            let length = DeepGraphTests.length
            requireAll([
                ("first read", outcome["first read"] == length),
                ("read after write", outcome["read after write"] == length + 1),
                ("observed", outcome["observed"] == length + 2),
                ("observed count", outcome["observed count"] == 2),
                ("after cancel", outcome["after cancel"] == 2),
                ("cancelling unlinks the whole chain", outcome["source subscribers"] == 0),
                ("the chain is released", outcome["tail released"] == 1),
            ])
        }
    }

    /// Closures kept in constants (`Property { }`, `Property(equals:)`, `Property(reducing:)`
    /// and, for a value that is not Equatable, the plain node): releasing the chain frees each
    /// closure, which frees the property it captured, through the teardown loop.
    @Test func aLongChainOfClosurePropertiesIsReleasedOnASmallStack() async {
        await #expect(processExitsWith: .success) {
            let outcome = Outcome()
            onSmallStack {
                let source = MutableProperty(0)
                var tail: Property<Int> = source.readOnly
                for index in 0..<DeepGraphTests.length {
                    let previous = tail
                    switch index % 4 {
                    case 0: tail = Property { previous.value + 1 }
                    case 1: tail = Property(equals: { $0 == $1 }) { previous.value + 1 }
                    case 2: tail = Property(reducing: 0) { _ in previous.value + 1 }
                    default: tail = notEquatable { previous.value + 1 }
                    }
                    // Computed one level at a time: a closure's inputs are unknown before it runs.
                    _ = tail.value
                }
                outcome["value"] = tail.value
                weak let weakTail = tail
                tail = source.readOnly
                outcome["tail released"] = weakTail == nil ? 1 : 0
            }
            requireAll([
                ("value", outcome["value"] == DeepGraphTests.length),
                ("the chain is released", outcome["tail released"] == 1),
            ])
        }
    }

    @Test func aLongChainOfDerivedClosuresWithKnownInputsIsReleasedOnASmallStack() async {
        await #expect(processExitsWith: .success) {
            let outcome = Outcome()
            onSmallStack {
                let source = MutableProperty(1)
                var tail: Property<Int> = source.readOnly
                for index in 0..<DeepGraphTests.length {
                    tail = index.isMultiple(of: 2) ? tail.map { $0 } : tail.skipRepeats()
                }
                let seen = Recorder<Int>()
                let subscription = tail.observe { seen.append($0) }
                source.value = 5
                source.value = 5
                outcome["values"] = seen.values.reduce(0) { $0 * 10 + $1 }
                _ = subscription
            }
            requireAll([("values 1 then 5", outcome["values"] == 15)])
        }
    }
}

/// A closure property made where its value type is not known to be Equatable (the node that
/// counts every run as a change).
private func notEquatable<Value: Sendable>(_ compute: @escaping @Sendable () -> Value) -> Property<Value> {
    Property(compute)
}
