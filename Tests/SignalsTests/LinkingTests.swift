import Testing
@testable import Signals

/// Holds a subscription and a run count that derived closures change (test-only; the
/// closures run under the graph lock, one at a time).
private final class LinkBox: @unchecked Sendable {
    var subscription: SignalSubscription?
    var runs = 0
}

/// A derived node is in its dependencies' subscriber lists exactly once while observed, and
/// in none once it is not, whatever its closure does while the links are made. A node left
/// in a list after it is freed would be called by the next write (a use after free; the
/// address sanitizer run of CI catches it, and `subscriberCount` shows it here).
@Suite("Linking derived nodes to their dependencies")
struct LinkingTests {
    /// The closure reads `a`, then a derived node that recomputes and reads `a` too, then
    /// `a` again: the nested run re-stamps `a`, and `a` must still be recorded once.
    @Test func aNodeReadAgainAfterANestedRunIsLinkedOnce() {
        let a = MutableProperty(1)
        let trigger = MutableProperty(0)
        weak var weakDerived: Property<Int>?
        do {
            let tenfold = a.map { $0 * 10 }
            let derived = Property<Int> { _ = trigger.value; return a.value + tenfold.value + a.value }
            weakDerived = derived
            let recorder = Recorder<Int>()
            let subscription = derived.observe { recorder.append($0) }
            #expect(a.subscriberCount == 2, "a is read by tenfold and derived, once each")
            trigger.value = 1
            #expect(a.subscriberCount == 2)
            a.value = 2
            #expect(recorder.values == [12, 24], "the first value, then a's write (the trigger's leaves 12 unchanged)")
            subscription.cancel()
            #expect(a.subscriberCount == 0, "a keeps \(a.subscriberCount) subscriber(s) after the only observer cancelled")
        }
        #expect(weakDerived == nil)
        a.value = 3
        #expect(a.value == 3)
    }

    /// The same with more than 32 reads, which removes the repeats through a set.
    @Test func repeatedReadsInALargeRunAreLinkedOnce() {
        let inputs = (0..<40).map { MutableProperty($0) }
        let nested = Property<Int> { inputs.reduce(0) { $0 + $1.value } }
        let derived = Property<Int> {
            let before = inputs.reduce(0) { $0 + $1.value }
            return before + nested.value + inputs.reduce(0) { $0 + $1.value }
        }
        let recorder = Recorder<Int>()
        let subscription = derived.observe { recorder.append($0) }
        #expect(inputs.allSatisfy { $0.subscriberCount == 2 })
        inputs[7].value += 1
        #expect(inputs.allSatisfy { $0.subscriberCount == 2 })
        #expect(recorder.values == [3 * 780, 3 * 781])
        subscription.cancel()
        #expect(inputs.allSatisfy { $0.subscriberCount == 0 })
    }

    /// A source read again in one run skips its record (`Graph.repeatedSource`); a nested run
    /// must still record its own first read of it, and its caller its first read of what the
    /// nested run read last.
    @Test func aSourceReadAgainAroundANestedRunIsRecordedByEachRun() {
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        // First computed by nested runs inside `outer`'s first run.
        let parity = Property<Int> { a.value % 2 }
        let zero = Property<Int> { b.value * 0 }
        let outer = Property<Int> { a.value + parity.value * 100 + zero.value + b.value * 1000 }
        let recorder = Recorder<Int>()
        let subscription = outer.observe { recorder.append($0) }
        #expect(a.subscriberCount == 2 && b.subscriberCount == 2, "outer and the nested node read each")
        b.value = 20
        a.value = 2
        #expect(recorder.values == [10_101, 20_101, 20_002])
        #expect(a.subscriberCount == 2 && b.subscriberCount == 2)
        subscription.cancel()
    }

    /// An unwatched derived node read again in one run is its value alone
    /// (`Graph.repeatedDerived`) until something is written: a write from the closure
    /// makes the next read validate it again.
    @Test func anUnwatchedNodeReadAgainAfterAWriteInTheSameRunRecomputes() {
        let a = MutableProperty(1)
        let tenfold = Property<Int> { a.value * 10 }
        let outer = Property<Int> {
            let before = tenfold.value + tenfold.value
            a.value = 2
            return before * 1000 + tenfold.value
        }
        #expect(tenfold.value == 10, "placed and validated before outer's run")
        #expect(outer.value == 20_020)
    }

    /// While `s` links to `n`, `n` validates, and its closure cancels the only observer of
    /// `s`: once linking ends, `s` and `n` are unlinked from everything.
    @Test func losingTheLastObserverWhileLinkingUnlinks() {
        let source = MutableProperty(0)
        let flag = MutableProperty(false)
        let box = LinkBox()
        weak var weakOuter: Property<Int>?
        do {
            let inner = Property<Int> {
                box.runs += 1
                if box.runs == 2 { box.subscription?.cancel() }
                return source.value
            }
            let outer = Property<Int> {
                guard flag.value else { return -1 }
                let value = inner.value
                source.value = value + 1
                return value
            }
            weakOuter = outer
            box.subscription = outer.observe { _ in }
            flag.value = true
            #expect(box.runs == 2)
            box.subscription = nil
            #expect(source.subscriberCount == 0, "source keeps \(source.subscriberCount) subscriber(s) with no observer left")
            #expect(flag.subscriberCount == 0)
        }
        #expect(weakOuter == nil)
        source.value = 100
        #expect(source.value == 100)
    }

    /// A closure that cancels its own node's only observer: unlinked once the run ends.
    @Test func cancellingFromInsideTheObservedClosureUnlinks() {
        let source = MutableProperty(0)
        let box = LinkBox()
        do {
            let derived = Property<Int> {
                let value = source.value
                if value == 1 { box.subscription?.cancel() }
                return value
            }
            let recorder = Recorder<Int>()
            box.subscription = derived.observe { recorder.append($0) }
            source.value = 1
            #expect(source.subscriberCount == 0)
            #expect(recorder.values == [0], "no call after the cancel, even one whose pull made it")
        }
        box.subscription = nil
        source.value = 2
        #expect(source.value == 2)
    }

    /// While `outer` relinks to `inner` (which validates then and runs its closure), that
    /// closure cancels `outer`'s only observer and observes `outer` again: `outer` stays
    /// linked, once, and the new observer gets later values.
    @Test func losingAndRegainingAnObserverWhileRelinkingStaysLinkedOnce() {
        let source = MutableProperty(0)
        let useInner = MutableProperty(false)
        let box = LinkBox()
        let replacement = LinkBox()
        let outerBox = OuterBox()
        let recorder = Recorder<Int>()
        let inner = Property<Int> {
            box.runs += 1
            if box.runs == 2, let outer = outerBox.outer {
                box.subscription?.cancel()
                replacement.subscription = outer.observe { recorder.append($0) }
            }
            return source.value
        }
        let outer = Property<Int> {
            guard useInner.value else { return -1 }
            let value = inner.value
            // Once: makes `inner` out of date when `outer` links to it.
            if box.runs == 1 { source.value = value + 1 }
            return value * 2
        }
        outerBox.outer = outer
        box.subscription = outer.observe { _ in }
        useInner.value = true
        #expect(box.runs == 2)
        #expect(useInner.subscriberCount == 1)
        #expect(inner.subscriberCount == 1)
        #expect(source.subscriberCount == 1)
        source.value = 5
        #expect(recorder.values.last == 10)
        replacement.subscription?.cancel()
        #expect(useInner.subscriberCount == 0)
        #expect(inner.subscriberCount == 0)
        #expect(source.subscriberCount == 0)
        // The test's own cycle: inner's closure → outerBox → outer → inner.
        outerBox.outer = nil
        replacement.subscription = nil
        box.subscription = nil
    }
}

private final class OuterBox: @unchecked Sendable {
    var outer: Property<Int>?
}

@Suite("Observing from inside a derived closure")
struct ObservingInsideDerivedClosureTests {
    /// `observe` inside a closure is not a read: a write to the observed property does not
    /// rerun the closure, and a closure that observes a property derived from itself forms
    /// no cycle, so everything is freed once the subscriptions are gone.
    @Test func observingIsNotADependency() {
        let source = MutableProperty(0)
        let other = MutableProperty(0)
        let box = LinkBox()
        weak var weakDerived: Property<Int>?
        do {
            let derived = Property<Int> {
                box.runs += 1
                if box.subscription == nil { box.subscription = other.observe { _ in } }
                return source.value
            }
            weakDerived = derived
            let subscription = derived.observe { _ in }
            #expect(box.runs == 1)
            other.value = 1
            #expect(box.runs == 1, "a write to the observed property reran the closure")
            #expect(other.subscriberCount == 1, "only the inner observation")
            subscription.cancel()
            box.subscription = nil
            #expect(source.subscriberCount == 0)
            #expect(other.subscriberCount == 0)
        }
        #expect(weakDerived == nil)
    }

    @Test func observingADerivedPropertyOfItselfLeavesNoCycle() {
        let source = MutableProperty(0)
        let holder = OuterHolder()
        let box = LinkBox()
        weak var weakDerived: Property<Int>?
        do {
            let derived = Property<Int> {
                let value = source.value
                if value == 1, box.subscription == nil, let doubled = holder.doubled {
                    box.subscription = doubled.observe { _ in }
                }
                return value
            }
            let doubled = derived.map { $0 * 2 }
            holder.doubled = doubled
            weakDerived = derived
            let subscription = derived.observe { _ in }
            source.value = 1
            subscription.cancel()
            box.subscription = nil
            holder.doubled = nil
        }
        #expect(source.subscriberCount == 0)
        #expect(weakDerived == nil)
    }
}

private final class OuterHolder: @unchecked Sendable {
    var doubled: Property<Int>?
}
