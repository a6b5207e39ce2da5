import Foundation
import Testing
@testable import Signals

@Suite("Threading")
struct ConcurrencyTests {
    @Test func anObserverNeverRunsConcurrentlyWithItselfAndSeesTheFinalValue() async {
        let property = MutableProperty(0)
        let guardState = ExclusiveCheck()
        let last = Recorder<Int>()
        let subscription = property.observe { value in
            guardState.enter()
            last.append(value)
            guardState.leave()
        }
        defer { subscription.cancel() }
        await onThreads(8) { thread in
            for step in 0..<500 { property.modify { $0 = max($0, thread * 1_000 + step) } }
        }
        #expect(guardState.overlaps == 0)
        #expect(last.values.last == property.value, "the last call carries the final value")
    }

    @Test func eightThreadStressOfWritesDerivedValuesObservesAndCancels() async {
        let sources = (0..<4).map { MutableProperty($0) }
        let sum = combineLatest(sources.map(\.readOnly)).map { $0.reduce(0, +) }
        let doubled = sum.map { $0 * 2 }
        let glitches = Counter()
        let guardState = ExclusiveCheck()
        let checker = combineLatest(sum, doubled).observe { pair in
            guardState.enter()
            if pair.1 != pair.0 * 2 { glitches.increment() }
            guardState.leave()
        }
        defer { checker.cancel() }
        await onThreads(8) { thread in
            var generator = SystemRandomNumberGenerator()
            for step in 0..<400 {
                switch thread % 4 {
                case 0, 1:
                    sources[Int.random(in: 0..<4, using: &generator)].modify { $0 += 1 }
                case 2:
                    let subscription = doubled.observe { _ in }
                    if step % 2 == 0 { subscription.cancel() }
                case _:
                    _ = sum.value
                    _ = Property { sources[0].value + sources[1].value }.value
                }
            }
        }
        #expect(glitches.value == 0, "observers never see old and new values mixed")
        #expect(guardState.overlaps == 0)
        let total = sources.reduce(0) { $0 + $1.value }
        #expect(sum.value == total)
        #expect(doubled.value == total * 2)
        #expect(total == 0 + 1 + 2 + 3 + 2 * 400 * 2)
    }

    @Test func concurrentSignalSendsReachEveryObserverExactlyOnce() async {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder<Int>()
        let guardState = ExclusiveCheck()
        let subscription = signal.observe { value in
            guardState.enter()
            seen.append(value)
            guardState.leave()
        }
        defer { subscription.cancel() }
        await onThreads(8) { thread in
            for step in 0..<250 { input.send(thread * 1_000 + step) }
        }
        #expect(seen.count == 2_000)
        #expect(Set(seen.values).count == 2_000)
        #expect(guardState.overlaps == 0)
        // Per sender, events arrive in the order they were sent.
        for thread in 0..<8 {
            let mine = seen.values.filter { $0 / 1_000 == thread }
            #expect(mine == mine.sorted())
        }
    }
}

/// Counts overlapping executions of a critical section.
final class ExclusiveCheck: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private var overlapCount = 0

    func enter() { lock.withLock { inside += 1; if inside > 1 { overlapCount += 1 } } }
    func leave() { lock.withLock { inside -= 1 } }
    var overlaps: Int { lock.withLock { overlapCount } }
}
