import Testing
@testable import Signals

@Suite("Batching")
struct BatchTests {
    @Test func observersRunOnceWithTheFinalValues() {
        let first = MutableProperty("Ada")
        let last = MutableProperty("Byron")
        let runs = Counter()
        let full = Property<String> {
            runs.increment()
            return "\(first.value) \(last.value)"
        }
        let seen = Recorder<String>()
        let subscription = full.observe { seen.append($0) }
        defer { subscription.cancel() }
        batch {
            first.value = "Grace"
            last.value = "Hopper"
            #expect(seen.values == ["Ada Byron"], "nothing is delivered inside the batch")
            #expect(first.value == "Grace", "writes take effect at once for readers")
        }
        #expect(seen.values == ["Ada Byron", "Grace Hopper"])
        #expect(runs.value == 2)
    }

    @Test func batchesNestAndDeliverAtTheOutermostEnd() {
        let a = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = a.observe { seen.append($0) }
        defer { subscription.cancel() }
        batch {
            a.value = 1
            batch { a.value = 2 }
            #expect(seen.values == [0])
            a.value = 3
        }
        #expect(seen.values == [0, 3])
    }

    @Test func aThrowingBatchStillDeliversItsWritesAndRethrows() {
        struct Boom: Error {}
        let a = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = a.observe { seen.append($0) }
        defer { subscription.cancel() }
        #expect(throws: Boom.self) {
            try batch {
                a.value = 1
                throw Boom()
            }
        }
        #expect(seen.values == [0, 1])
    }

    @Test func signalEventsInABatchAreAllDeliveredInOrder() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder<Int>()
        let subscription = signal.observe { seen.append($0) }
        defer { subscription.cancel() }
        batch {
            input.send(1)
            input.send(2)
            #expect(seen.values.isEmpty)
        }
        #expect(seen.values == [1, 2])
    }

    @Test func batchReturnsTheBodysValue() {
        #expect(batch { 42 } == 42)
    }
}
