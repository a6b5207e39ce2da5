import Testing
@testable import Signals

@Suite("Batch semantics: first values and reverted writes")
struct BatchSemanticsTests {
    @Test func observeInsideABatchDeliversTheCurrentValueBeforeReturning() {
        let property = MutableProperty(1)
        let seen = Recorder<Int>()
        var subscription: SignalSubscription?
        let countInside = batch {
            subscription = property.observe { seen.append($0) }
            let count = seen.count
            property.value = 2
            #expect(seen.values == [1], "later values wait for the end of the batch")
            return count
        }
        #expect(countInside == 1)
        #expect(seen.values == [1, 2])
        _ = subscription
    }

    @Test func observeInsideAnObserverDeliversTheCurrentValueBeforeReturning() {
        let trigger = MutableProperty(0)
        let other = MutableProperty(10)
        let seen = Recorder<Int>()
        let countsInside = Recorder<Int>()
        let inner = SubscriptionBox()
        let outer = trigger.observe(emitsCurrentValue: false) { _ in
            inner.subscription = other.observe { seen.append($0) }
            countsInside.append(seen.count)
            other.value = 11
            countsInside.append(seen.count)
        }
        trigger.value = 1
        #expect(countsInside.values == [1, 1], "the first value at once; the write after the observer returns")
        #expect(seen.values == [10, 11])
        _ = outer
    }

    @Test func observeInsideADerivedClosureDeliversWhenTheOutermostReadReturns() {
        let source = MutableProperty(1)
        let seen = Recorder<Int>()
        let box = SubscriptionBox()
        let derived = Property<Int> {
            if box.subscription == nil {
                box.subscription = source.observe { seen.append($0) }
                #expect(seen.count == 0, "no observer runs inside a derived closure")
            }
            return 0
        }
        _ = derived.value
        #expect(seen.values == [1])
    }

    @Test func aWriteRevertedWithinABatchRecomputesAndNotifiesNothing() {
        let source = MutableProperty(42)
        let runs = Counter()
        let derived = source.map { value -> Int in
            runs.increment()
            return value + 1
        }
        let seenSource = Recorder<Int>()
        let seenDerived = Recorder<Int>()
        let subscriptions = [source.observe { seenSource.append($0) }, derived.observe { seenDerived.append($0) }]
        let runsBefore = runs.value
        batch {
            source.value = 0
            source.value = 42
        }
        #expect(runs.value == runsBefore, "the derived closure does not run")
        #expect(seenSource.values == [42])
        #expect(seenDerived.values == [43])
        // Later writes still propagate (the version given back is never reused).
        source.value = 7
        #expect(seenDerived.values == [43, 8])
        _ = subscriptions
    }

    @Test func aRevertedWriteReadInsideTheBatchRecomputesBackOnce() {
        let source = MutableProperty(42)
        let derived = source.map { $0 * 2 }
        let seen = Recorder<Int>()
        let subscription = derived.observe { seen.append($0) }
        batch {
            source.value = 0
            #expect(derived.value == 0, "reads inside the batch see the write")
            source.value = 42
        }
        #expect(derived.value == 84)
        // The derived value moved to 0 and back inside the batch (two versions): its observer
        // is called once more, with the equal final value, as Preact's and alien-signals'
        // effects are for a computed that changed and changed back.
        #expect(seen.values == [84, 84])
        _ = subscription
    }

    @Test func aPropertyWithoutEqualityNotifiesEvenWhenReverted() {
        let source = MutableProperty(42, equals: nil)
        let seen = Recorder<Int>()
        let subscription = source.observe { seen.append($0) }
        batch {
            source.value = 0
            source.value = 42
        }
        #expect(seen.values == [42, 42], "no equality: every write is a change")
        _ = subscription
    }
    @Test func aWriteRevertedInABatchAfterABatchOfOneWriteNotifiesNothing() {
        // A trivial value's first write in a batch records the value before it, and only a
        // second write settles the record: the record of an earlier batch must not be used.
        let source = MutableProperty(1)
        let seen = Recorder<Int>()
        let subscription = source.observe { seen.append($0) }
        batch { source.value = 2 }
        batch {
            source.value = 3
            batch { source.value = 4 }
            source.value = 2
        }
        batch { source.value = 5 }
        batch {
            source.value = 6
            source.value = 7
            source.value = 5
        }
        #expect(seen.values == [1, 2, 5])
        _ = subscription
    }

    @Test func aRevertedWriteOfANonTrivialValueNotifiesNothing() {
        let source = MutableProperty("a")
        let seen = Recorder<String>()
        let subscription = source.observe { seen.append($0) }
        batch { source.value = "b" }
        batch {
            source.value = "c"
            source.value = "b"
        }
        #expect(seen.values == ["a", "b"])
        _ = subscription
    }
}
