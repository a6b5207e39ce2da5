import Testing
@testable import Signals

@Suite("Memory")
struct MemoryTests {
    @Test func unobservedDerivedPropertiesAreFreedWhenDropped() {
        let source = MutableProperty(1)
        weak var weakDerived: Property<Int>?
        do {
            let derived = source.map { $0 + 1 }
            weakDerived = derived
            #expect(derived.value == 2)
        }
        #expect(weakDerived == nil)
        #expect(source.subscriberCount == 0, "the source keeps no link to the dropped node")
    }

    @Test func aSourceDoesNotKeepUnobservedDownstreamNodesAlive() {
        let source = MutableProperty(1)
        weak var weakLeaf: Property<Int>?
        do {
            let middle = source.map { $0 * 2 }
            let leaf = middle.map { $0 + 1 }
            weakLeaf = leaf
            let subscription = leaf.observe { _ in }
            source.value = 2
            subscription.cancel()
        }
        source.value = 3
        #expect(weakLeaf == nil)
        #expect(source.subscriberCount == 0)
    }

    @Test func aCancelledSubscriptionReleasesItsClosure() {
        let source = MutableProperty(1)
        weak var weakToken: Token?
        let subscription: SignalSubscription
        do {
            let token = Token()
            weakToken = token
            subscription = source.observe { _ in _ = token }
        }
        #expect(weakToken != nil, "kept while observing")
        subscription.cancel()
        #expect(weakToken == nil)
    }

    @Test func aCancelledSignalSubscriptionReleasesItsClosure() {
        let (signal, _) = Signal<Int>.pipe()
        weak var weakToken: Token?
        let subscription: SignalSubscription
        do {
            let token = Token()
            weakToken = token
            subscription = signal.map { $0 }.observe { _ in _ = token }
        }
        #expect(weakToken != nil)
        subscription.cancel()
        #expect(weakToken == nil)
    }

    @Test func anObservedDerivedPropertyLivesAsLongAsItsSubscription() {
        let source = MutableProperty(1)
        let seen = Recorder<Int>()
        weak var weakDerived: Property<Int>?
        let subscription: SignalSubscription
        do {
            let derived = source.map { $0 * 3 }
            weakDerived = derived
            subscription = derived.observe { seen.append($0) }
        }
        source.value = 2
        #expect(seen.values == [3, 6], "the subscription keeps the chain working")
        subscription.cancel()
        #expect(weakDerived == nil)
    }

    @Test func heldSignalPropertyIsFreedWhenDropped() {
        let (signal, input) = Signal<Int>.pipe()
        weak var weakHeld: Property<Int>?
        do {
            let held = signal.hold(initial: 0)
            weakHeld = held
            input.send(1)
            #expect(held.value == 1)
        }
        #expect(weakHeld == nil)
    }
}

@Suite("Memory: release on cancel")
struct ReleaseOnCancelTests {
    @Test func cancellingReleasesTheObservedDerivedNodeAndWhatItsClosureCaptures() {
        let source = MutableProperty(1)
        weak var weakToken: Token?
        let subscription: SignalSubscription
        do {
            let token = Token()
            weakToken = token
            let derived = source.map { value in
                _ = token
                return value * 2
            }
            subscription = derived.observe { _ in }
        }
        #expect(weakToken != nil, "kept while observed")
        subscription.cancel()
        #expect(weakToken == nil, "the cancelled subscription (still held) keeps nothing it observed")
        #expect(source.subscriberCount == 0)
        _ = subscription
    }

    @Test func aBagDropsSubscriptionsCancelledElsewhereAsItGrows() {
        let source = MutableProperty(0)
        let bag = SubscriptionBag()
        weak var weakFirst: SignalSubscription?
        do {
            let first = source.observe { _ in }
            weakFirst = first
            first.store(in: bag)
            first.cancel()
        }
        #expect(bag.count == 0, "count is of live subscriptions")
        for _ in 0..<100 {
            let subscription = source.observe { _ in }
            subscription.store(in: bag)
            subscription.cancel()
        }
        #expect(weakFirst == nil, "a cancelled subscription leaves the bag when it grows")
        let live = source.observe { _ in }
        live.store(in: bag)
        #expect(bag.count == 1)
    }
}
