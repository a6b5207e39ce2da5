import Foundation
import Testing
@testable import Signals

/// Eight threads at once on one graph: writes (plain, modify, swap, batched), derived values
/// (chains, diamonds, dynamic dependencies, reducers), observes and cancels, signal sends.
/// Afterwards every value and count is exact, observers never overlapped with themselves,
/// never saw a glitch, got the final values, and every node is freed. Run under
/// `--sanitize=thread` by `.ci/sanitizers`.
@Suite("Stress: eight threads")
struct StressTests {
    static let threads = 8
    static let steps = 1_500

    @Test func eightThreadsOfWritesDerivedValuesObservesAndCancelsEndExact() async {
        let counters = (0..<4).map { _ in MutableProperty(0) }
        let pairA = MutableProperty(0)
        let pairB = MutableProperty(0)
        let flag = MutableProperty(false)
        let (signal, input) = Signal<Int>.pipe()

        weak var weakTotal: Property<Int>?
        weak var weakJoin: Property<Int>?
        let tallies = (0..<Self.threads).map { _ in Tally(4) }
        let sent = Counter()
        let received = Counter()
        let observeCalls = Counter()
        let observes = Counter()
        let glitches = Recorder<String>()
        let overlap = ExclusiveCheck()
        let lastSeen = Recorder<(Int, Int)>()
        do {
            let total = combineLatest(counters.map(\.readOnly)).map { $0.reduce(0, +) }
            let doubled = total.map { $0 * 2 }
            let tripled = total.map { $0 * 3 }
            let join = Property { doubled.value + tripled.value }
            let pair = combineLatest(pairA.readOnly, pairB.readOnly)
            let dynamic = Property { flag.value ? counters[0].value : counters[1].value }
            let steps = Property(reducing: 0) { previous in previous + (counters[2].value >= 0 ? 1 : 0) }
            weakTotal = total
            weakJoin = join

            let checker = combineLatest(total, join).observe { sum, joined in
                overlap.enter()
                if joined != sum * 5 { glitches.append("join \(joined) for total \(sum)") }
                lastSeen.append((sum, joined))
                overlap.leave()
            }
            let pairChecker = pair.observe { a, b in
                if a != b { glitches.append("pair written in one batch seen torn: \(a) \(b)") }
            }
            let signalObserver = signal.observe { _ in received.increment() }

            await onThreads(Self.threads) { thread in
                var random = SystemRandomNumberGenerator()
                for step in 0..<Self.steps {
                    switch thread {
                    case 0, 1:
                        let index = Int.random(in: 0..<4, using: &random)
                        counters[index].modify { $0 += 1 }
                        tallies[thread].add(index)
                    case 2:
                        // The only writer of the pair, always in one batch.
                        batch {
                            pairA.modify { $0 += 1 }
                            pairB.modify { $0 += 1 }
                        }
                    case 3:
                        // Observe and cancel derived nodes created on the fly.
                        let chain = counters[step % 4].map { $0 + 1 }.map { $0 * 2 }
                        let calls = Counter()
                        let subscription = chain.observe { value in
                            calls.increment()
                            if value < 2 || value % 2 != 0 { glitches.append("chain value \(value)") }
                        }
                        observes.increment()
                        if calls.value < 1 { glitches.append("observe returned before the current value was delivered") }
                        observeCalls.increment()
                        if step % 3 != 0 { subscription.cancel() }
                    case 4:
                        // Reads are consistent: a derived value is never computed from a mix.
                        let joined = join.value
                        if joined % 5 != 0 { glitches.append("read join \(joined)") }
                        _ = dynamic.value
                        _ = steps.value
                    case 5:
                        flag.value.toggle()
                        _ = dynamic.value
                        let index = Int.random(in: 0..<4, using: &random)
                        counters[index].modify { $0 += 1 }
                        tallies[thread].add(index)
                    case 6:
                        input.send(step)
                        sent.increment()
                    default:
                        // Batched writes of two counters plus a swap that writes the same value.
                        batch {
                            counters[3].modify { $0 += 1 }
                            counters[2].modify { $0 += 1 }
                        }
                        tallies[thread].add(3)
                        tallies[thread].add(2)
                        let old = flag.swap(flag.value)
                        _ = old
                    }
                }
            }

            var expected = [0, 0, 0, 0]
            for tally in tallies {
                for index in 0..<4 { expected[index] += tally.counts[index] }
            }
            #expect(counters.map(\.value) == expected, "no increment lost")
            let sum = expected.reduce(0, +)
            #expect(sum == 2 * Self.steps + Self.steps + 2 * Self.steps)
            #expect(total.value == sum)
            #expect(join.value == sum * 5)
            #expect(pairA.value == Self.steps && pairB.value == Self.steps)
            #expect(dynamic.value == (flag.value ? counters[0].value : counters[1].value))
            #expect(steps.value >= 1)
            #expect(received.value == sent.value && sent.value == Self.steps, "every signal value delivered once")
            #expect(observes.value == Self.steps && observeCalls.value == Self.steps)
            #expect(overlap.overlaps == 0, "an observer never ran concurrently with itself")
            #expect(glitches.values.isEmpty, "\(glitches.values.prefix(5))")
            let last = lastSeen.values.last
            #expect(last?.0 == sum && last?.1 == sum * 5, "the observer saw the final values")

            checker.cancel()
            pairChecker.cancel()
            signalObserver.cancel()
        }
        // `onThreads` released the threads' closures (which captured the nodes) before it
        // returned, and every other reference was local to the scope above.
        #expect(weakTotal == nil && weakJoin == nil, "derived nodes freed once dropped")
        #expect(counters.allSatisfy { $0.subscriberCount == 0 }, "no links left on the sources")
        #expect(pairA.subscriberCount == 0 && flag.subscriberCount == 0)
    }

    @Test func eventsSentInOrderUnderALockArriveInThatOrderEvenFromBatches() async {
        // A sequence number is taken and the event sent under one lock, inside a batch (as a
        // data source emits its load events): observers must see the numbers in order.
        let (signal, input) = Signal<Int>.pipe()
        let lock = NSLock()
        let counter = Counter()
        let seen = Recorder<Int>()
        let subscription = signal.observe { seen.append($0) }
        defer { subscription.cancel() }
        await onThreads(Self.threads) { thread in
            for step in 0..<Self.steps {
                batch {
                    lock.withLock {
                        counter.increment()
                        input.send(counter.value)
                    }
                    // Jitter, not a wait: a pause inside the batch lets other threads' batches end first.
                    if (thread + step) % 3 == 0 { usleep(1) }
                }
            }
        }
        let values = seen.values
        #expect(values.count == Self.threads * Self.steps)
        let firstDisorder = zip(values, values.dropFirst()).first { $0.0 >= $0.1 }
        #expect(firstDisorder == nil, "events delivered out of the order they were sent: \(String(describing: firstDisorder))")
    }

    @Test func eightThreadsSubscribingAndCancellingLeaveNoSubscribers() async {
        let source = MutableProperty(0)
        let derived = source.map { $0 * 2 }
        weak var weakSubscription: SignalSubscription?
        let delivered = Counter()
        await onThreads(Self.threads) { thread in
            for step in 0..<Self.steps {
                let subscription = derived.observe(emitsCurrentValue: false) { _ in delivered.increment() }
                if thread % 2 == 0 { source.modify { $0 += 1 } }
                if step % 2 == 0 { subscription.cancel() } // the others cancel on deinit
            }
        }
        do {
            let subscription = derived.observe { _ in }
            weakSubscription = subscription
            subscription.cancel()
        }
        #expect(weakSubscription == nil)
        #expect(source.value == Self.threads / 2 * Self.steps)
        #expect(derived.value == source.value * 2)
        #expect(source.subscriberCount <= 1, "only the derived node may stay linked")
        #expect(derived.subscriberCount == 0, "every subscription is gone")
        #expect(delivered.value > 0)
    }
}

/// Per-thread counts of increments per counter (touched only by its thread until joined).
final class Tally: @unchecked Sendable {
    private(set) var counts: [Int]
    init(_ size: Int) { counts = Array(repeating: 0, count: size) }
    func add(_ index: Int) { counts[index] += 1 }
}
