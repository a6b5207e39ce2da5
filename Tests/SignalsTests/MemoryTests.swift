import Foundation
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

    /// The closure and the observed node are used without a retain during a call: a cancel
    /// from inside the call leaves their release to the call's end, which then releases them.
    @Test func anObserverCancellingItselfIsReleasedWhenItsCallEnds() {
        let source = MutableProperty(1)
        // Captured by the observer's closure, and by the observed derived node's closure.
        let observerToken = WeakBox<Token>()
        let nodeToken = WeakBox<Token>()
        let box = SubscriptionBox()
        let aliveDuringTheCall = Flag()
        do {
            let strongObserverToken = Token()
            let strongNodeToken = Token()
            observerToken.object = strongObserverToken
            nodeToken.object = strongNodeToken
            let derived = source.map { value in
                _ = strongNodeToken
                return value * 2
            }
            box.subscription = derived.observe { value in
                _ = strongObserverToken
                guard value == 4 else { return }
                box.subscription?.cancel()
                // Still valid here: this call keeps using what it was given.
                aliveDuringTheCall.value = observerToken.object != nil && nodeToken.object != nil
            }
        }
        #expect(observerToken.object != nil && nodeToken.object != nil, "kept while observing")
        source.value = 2
        #expect(aliveDuringTheCall.value)
        #expect(observerToken.object == nil, "the closure is released once the call that cancelled ended")
        #expect(nodeToken.object == nil, "so is the observed node")
        #expect(source.subscriberCount == 0)
        source.value = 3
        _ = box
    }

    /// A cancel on another thread during a call leaves the release of the observed node to
    /// that call (the call uses it without a retain), which releases it when it ends.
    @Test func aCancelDuringACallOnAnotherThreadIsReleasedWhenThatCallEnds() async {
        let source = MutableProperty(0)
        // Captured by the observer's closure, and by the observed derived node's closure.
        let observerToken = WeakBox<Token>()
        let nodeToken = WeakBox<Token>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let aliveAfterCancel = Flag()
        let subscription: SignalSubscription
        do {
            let strongObserverToken = Token()
            let strongNodeToken = Token()
            observerToken.object = strongObserverToken
            nodeToken.object = strongNodeToken
            let derived = source.map { value in
                _ = strongNodeToken
                return value + 1
            }
            subscription = derived.observe(emitsCurrentValue: false) { _ in
                _ = strongObserverToken
                entered.signal()
                // A hang guard only: the other thread signals once it has cancelled.
                _ = proceed.wait(timeout: .now() + 60)
            }
        }
        await onThreads(2) { index in
            if index == 0 {
                source.value = 1
            } else {
                _ = entered.wait(timeout: .now() + 60)
                subscription.cancel()
                aliveAfterCancel.value = observerToken.object != nil && nodeToken.object != nil
                proceed.signal()
            }
        }
        #expect(aliveAfterCancel.value, "the call in progress keeps what it uses")
        #expect(observerToken.object == nil && nodeToken.object == nil, "released when that call ended")
        #expect(source.subscriberCount == 0)
    }

    /// A subscription whose last reference is dropped inside its own observer detaches as a
    /// cancel does: no call after that one, and the closure released when the call ends.
    @Test func aSubscriptionReleasedInsideItsOwnObserverDetaches() {
        let source = MutableProperty(0)
        let observation = WatchedObservation(source) { box, _ in box.subscription = nil }
        source.value = 1
        #expect(observation.calls.value == 1)
        #expect(observation.isReleased, "released with the last reference, once the call ended")
        source.value = 2
        #expect(observation.calls.value == 1, "not called again")
        #expect(source.subscriberCount == 0)
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

private final class Flag: @unchecked Sendable {
    var value = false
}

private final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
}
