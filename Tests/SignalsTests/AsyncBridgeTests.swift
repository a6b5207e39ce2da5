import Testing
@testable import Signals

@Suite("Async bridge")
struct AsyncBridgeTests {
    @Test func propertyValuesStartWithTheCurrentValue() async {
        let property = MutableProperty(1)
        var iterator = property.values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        property.value = 2
        #expect(await iterator.next() == 2)
    }

    @Test func slowConsumersOfAPropertyGetTheLatestValue() async {
        let property = MutableProperty(0)
        var iterator = property.values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        for value in 1...100 { property.value = value }
        #expect(await iterator.next() == 100, "values in between are dropped: latest wins")
    }

    @Test func signalValuesBufferEveryEvent() async {
        let (signal, input) = Signal<Int>.pipe()
        var iterator = signal.values.makeAsyncIterator()
        for value in 1...5 { input.send(value) }
        var received: [Int] = []
        for _ in 1...5 { if let value = await iterator.next() { received.append(value) } }
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test func cancellingTheConsumingTaskCancelsTheSubscription() async {
        let property = MutableProperty(0)
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            for await _ in property.values { start.yield() }
        }
        // The consuming task has its first value (so it has subscribed).
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        #expect(property.subscriberCount == 1)
        task.cancel()
        await task.value
        #expect(property.subscriberCount == 0)
    }

    @Test func derivedPropertiesWorkAsAsyncSequences() async {
        let items = MutableProperty([1, 2, 3])
        let total = items.map { $0.reduce(0, +) }
        var iterator = total.values.makeAsyncIterator()
        #expect(await iterator.next() == 6)
        items.value.append(4)
        #expect(await iterator.next() == 10)
    }
}
