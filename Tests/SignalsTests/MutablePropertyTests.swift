import Testing
@testable import Signals

@Suite("MutableProperty and constant properties")
struct MutablePropertyTests {
    @Test func readsAndWritesTheCurrentValue() {
        let property = MutableProperty(1)
        #expect(property.value == 1)
        property.value = 2
        #expect(property.value == 2)
        #expect(property.readOnly.value == 2)
    }

    @Test func constantPropertyNeverChanges() {
        let constant = Property(value: "fixed")
        let seen = Recorder<String>()
        let subscription = constant.observe { seen.append($0) }
        defer { subscription.cancel() }
        #expect(seen.values == ["fixed"])
        #expect(constant.value == "fixed")
    }

    @Test func observeEmitsCurrentThenEveryChangeOnTheWritingThread() {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = property.observe { seen.append($0) }
        defer { subscription.cancel() }
        property.value = 1
        property.value = 2
        // Delivery is synchronous on the writing thread: no waiting needed.
        #expect(seen.values == [0, 1, 2])
    }

    @Test func observeCanSkipTheCurrentValue() {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = property.observe(emitsCurrentValue: false) { seen.append($0) }
        defer { subscription.cancel() }
        #expect(seen.values.isEmpty)
        property.value = 5
        #expect(seen.values == [5])
    }

    @Test func equatableWritesOfTheSameValueNotifyNobody() {
        let property = MutableProperty("a")
        let seen = Recorder<String>()
        let subscription = property.observe { seen.append($0) }
        defer { subscription.cancel() }
        property.value = "a"
        property.value = "b"
        property.value = "b"
        #expect(seen.values == ["a", "b"])
    }

    @Test func withoutEqualityEveryWriteNotifies() {
        let property = MutableProperty(1, equals: nil)
        let seen = Recorder<Int>()
        let subscription = property.observe { seen.append($0) }
        defer { subscription.cancel() }
        property.value = 1
        property.value = 1
        #expect(seen.values == [1, 1, 1])
    }

    @Test func modifyIsAtomicAcrossThreads() async {
        let property = MutableProperty(0)
        await onThreads(8) { _ in
            for _ in 0..<1_000 { property.modify { $0 += 1 } }
        }
        #expect(property.value == 8_000)
    }

    @Test func modifyReturnsTheBodysResultAndSwapReturnsTheOldValue() {
        let property = MutableProperty([1, 2])
        let count = property.modify { values -> Int in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(property.swap([9]) == [1, 2, 3])
        #expect(property.value == [9])
    }

    @Test func modifyThatThrowsKeepsWhatTheBodyDidAndRethrows() {
        struct Boom: Error {}
        let property = MutableProperty(1)
        #expect(throws: Boom.self) {
            try property.modify { value in
                value = 2
                throw Boom()
            }
        }
        #expect(property.value == 2)
    }
}
