import ReactiveSourcesTesting
import Signals
import Synchronization
import Testing

/// Debounce and throttle in virtual time: the manual clock moves only when the test says so.
@Suite(.timeLimit(.minutes(10)))
struct TimeOperatorTests {
    /// An observer whose events a test awaits one by one.
    final class Events<Value: Sendable>: Sendable {
        let stream: AsyncStream<Value>
        let continuation: AsyncStream<Value>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream(of: Value.self) }
        func next() async -> Value? {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
    }

    @Test func debounceGivesTheLastEventOfABurst() async {
        let clock = ManualClock()
        let (signal, input) = Signal<String>.pipe()
        let events = Events<String>()
        let subscription = signal.debounce(for: .milliseconds(300), clock: clock).observe { events.continuation.yield($0) }
        for text in ["s", "sw", "swi"] {
            input.send(text)
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(200))
        }
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(100))
        #expect(await events.next() == "swi")
        // Nothing else was pending: the next event is the next burst's.
        input.send("x")
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(300))
        #expect(await events.next() == "x")
        subscription.cancel()
    }

    @Test func cancellingStopsTheTimer() async {
        let clock = ManualClock()
        let (signal, input) = Signal<Int>.pipe()
        let received = Mutex<[Int]>([])
        let subscription = signal.debounce(for: .seconds(1), clock: clock).observe { value in
            received.withLock { $0.append(value) }
        }
        input.send(1)
        await clock.waitForSleepers(1)
        subscription.cancel()
        #expect(clock.sleeperCount == 0)
        clock.advance(by: .seconds(2))
        input.send(2)
        #expect(clock.sleeperCount == 0)
        #expect(received.withLock { $0 }.isEmpty)
    }

    @Test func throttleEmitsAtOnceThenTheLatestAtTheEndOfTheWindow() async {
        let clock = ManualClock()
        let (signal, input) = Signal<Int>.pipe()
        let events = Events<Int>()
        let subscription = signal.throttle(for: .seconds(1), clock: clock).observe { events.continuation.yield($0) }
        input.send(1)
        #expect(await events.next() == 1)
        input.send(2)
        await clock.waitForSleepers(1)
        input.send(3)
        clock.advance(by: .milliseconds(999))
        input.send(4)
        clock.advance(by: .milliseconds(1))
        #expect(await events.next() == 4)
        // The trailing emission opened a new window: 5 waits for its end.
        input.send(5)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await events.next() == 5)
        // A quiet window later, an event goes out at once again.
        clock.advance(by: .seconds(5))
        input.send(6)
        #expect(await events.next() == 6)
        subscription.cancel()
    }

    @Test func throttleCanKeepTheFirstEventOfAWindow() async {
        let clock = ManualClock()
        let (signal, input) = Signal<Int>.pipe()
        let events = Events<Int>()
        let subscription = signal.throttle(for: .seconds(1), clock: clock, latest: false).observe { events.continuation.yield($0) }
        input.send(1)
        #expect(await events.next() == 1)
        input.send(2)
        input.send(3)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await events.next() == 2)
        subscription.cancel()
    }

    @Test func debouncedPropertyStartsWithTheCurrentValue() async {
        let clock = ManualClock()
        let text = MutableProperty("")
        let debounced = text.debounce(for: .milliseconds(300), clock: clock)
        #expect(debounced.value == "")
        let events = Events<String>()
        let subscription = debounced.observe(emitsCurrentValue: false) { events.continuation.yield($0) }
        text.value = "s"
        await clock.waitForSleepers(1)
        text.value = "sw"
        await clock.waitForSleepers(1)
        #expect(debounced.value == "")
        clock.advance(by: .milliseconds(300))
        #expect(await events.next() == "sw")
        #expect(debounced.value == "sw")
        subscription.cancel()
    }

    @Test func throttledPropertyTakesTheLatestValuePerWindow() async {
        let clock = ManualClock()
        let source = MutableProperty(0)
        let throttled = source.throttle(for: .seconds(1), clock: clock)
        let events = Events<Int>()
        let subscription = throttled.observe(emitsCurrentValue: false) { events.continuation.yield($0) }
        source.value = 1
        source.value = 2
        await clock.waitForSleepers(1)
        #expect(throttled.value == 0)
        clock.advance(by: .seconds(1))
        #expect(await events.next() == 2)
        subscription.cancel()
    }

    @Test func droppingADebouncedPropertyStopsItsTimer() async {
        let clock = ManualClock()
        let source = MutableProperty(0)
        weak var weakDebounced: Property<Int>?
        do {
            let debounced = source.debounce(for: .seconds(1), clock: clock)
            weakDebounced = debounced
            source.value = 1
            await clock.waitForSleepers(1)
        }
        #expect(weakDebounced == nil)
        #expect(clock.sleeperCount == 0)
        source.value = 2
        #expect(clock.sleeperCount == 0)
    }
}
