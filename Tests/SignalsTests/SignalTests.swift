import Testing
@testable import Signals

@Suite("Signals")
struct SignalTests {
    @Test func pipeDeliversEventsInOrderWithNoCurrentValue() {
        let (signal, input) = Signal<Int>.pipe()
        input.send(0) // nobody listens: dropped, a signal has no current value
        let seen = Recorder<Int>()
        let subscription = signal.observe { seen.append($0) }
        defer { subscription.cancel() }
        input.send(1)
        input.send(2)
        #expect(seen.values == [1, 2])
    }

    @Test func operatorsTransformEvents() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder<String>()
        let subscription = signal
            .filter { $0 >= 0 }
            .map { $0 * 2 }
            .compactMap { $0 == 4 ? nil : "\($0)" }
            .skipRepeats()
            .observe { seen.append($0) }
        defer { subscription.cancel() }
        for value in [1, -1, 2, 3, 3, 4] { input.send(value) }
        #expect(seen.values == ["2", "6", "8"])
    }

    @Test func mergeForwardsEventsFromEverySignal() {
        let (a, inputA) = Signal<String>.pipe()
        let (b, inputB) = Signal<String>.pipe()
        let seen = Recorder<String>()
        let subscription = a.merge(with: b).observe { seen.append($0) }
        inputA.send("a1")
        inputB.send("b1")
        inputA.send("a2")
        subscription.cancel()
        inputB.send("late")
        #expect(seen.values == ["a1", "b1", "a2"])
    }

    @Test func holdTurnsEventsIntoAProperty() {
        let (signal, input) = Signal<Int>.pipe()
        let latest = signal.hold(initial: 0)
        #expect(latest.value == 0)
        input.send(4)
        #expect(latest.value == 4)
    }

    @Test func neverSendsNothing() {
        let seen = Recorder<Int>()
        let subscription = Signal<Int>.never.observe { seen.append($0) }
        subscription.cancel()
        #expect(seen.values.isEmpty)
    }

    @Test func everyObserverGetsEveryEvent() {
        let (signal, input) = Signal<Int>.pipe()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let s1 = signal.observe { first.append($0) }
        let s2 = signal.observe { second.append($0) }
        defer { s1.cancel(); s2.cancel() }
        input.send(1)
        input.send(2)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2])
    }
}
