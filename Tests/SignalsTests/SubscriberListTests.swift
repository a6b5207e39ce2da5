import ReactiveSourcesTesting
import Testing
@testable import Signals

/// `SubscriberList` (one subscriber inline, more in a buffer it manages by hand) against an
/// array, over seeded random sequences of subscribes and unsubscribes.
@Suite("Subscriber list")
struct SubscriberListTests {
    @Test func matchesAnArrayOverRandomSubscribesAndUnsubscribes() {
        let nodes = (0..<12).map { _ in MutableProperty(0).source as GraphNode }
        let seed: UInt64 = 0x5B5C_21B7
        var random = SplitMix64(seed: seed)
        for sequence in 0..<500 {
            var list = SubscriberList()
            var model: [GraphNode] = []
            for step in 0..<60 {
                let node = nodes[Int.random(in: 0..<nodes.count, using: &random)]
                if Bool.random(using: &random), !model.contains(where: { $0 === node }) {
                    list.append(Unmanaged.passUnretained(node))
                    model.append(node)
                } else {
                    list.remove(Unmanaged.passUnretained(node))
                    model.removeAll { $0 === node }
                }
                var seen: [UnsafeMutableRawPointer] = []
                SubscriberList.forEach(list.rawBits) { seen.append($0.toOpaque()) }
                let expected = model.map { Unmanaged.passUnretained($0).toOpaque() }
                let single = SubscriberList.single(list.rawBits)?.toOpaque()
                guard list.count == model.count, list.isEmpty == model.isEmpty, seen == expected,
                      single == (model.count == 1 ? expected[0] : nil) else {
                    Issue.record("seed \(seed), sequence \(sequence), step \(step): the list holds \(seen), the model \(expected)")
                    list.deallocate()
                    return
                }
            }
            list.deallocate()
        }
    }

    /// Through the public API: a node observed twice, then once, then not at all.
    @Test func aPropertyObservedByTwoThenOneThenNone() {
        let source = MutableProperty(0)
        let calls = Counter()
        let first = source.observe(emitsCurrentValue: false) { _ in calls.increment() }
        let second = source.observe(emitsCurrentValue: false) { _ in calls.increment() }
        let third = source.observe(emitsCurrentValue: false) { _ in calls.increment() }
        #expect(source.subscriberCount == 3)
        source.value = 1
        #expect(calls.value == 3)
        second.cancel()
        #expect(source.subscriberCount == 2)
        source.value = 2
        #expect(calls.value == 5)
        first.cancel()
        #expect(source.subscriberCount == 1)
        source.value = 3
        #expect(calls.value == 6)
        third.cancel()
        #expect(source.subscriberCount == 0)
        source.value = 4
        #expect(calls.value == 6)
    }
}
