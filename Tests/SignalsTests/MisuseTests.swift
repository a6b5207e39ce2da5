import Foundation
import Testing
@testable import Signals

/// What documented misuse and edge-case input get: a defined outcome, or a precondition
/// failure where the documentation says so (checked with exit tests).
@Suite("Misuse and edge cases: documented outcomes")
struct MisuseTests {
    // MARK: Dependency cycles

    @Test func aDerivedPropertyReadingItselfGetsItsPreviousValue() {
        let flag = MutableProperty(false)
        let box = PropertyBox<Int>()
        defer { box.property = nil }  // the test's own cycle (property -> box -> property)
        let runs = Counter()
        let property = Property<Int> {
            runs.increment()
            return flag.value ? box.property!.value + 1 : 0
        }
        box.property = property
        #expect(property.value == 0)
        flag.value = true
        #expect(property.value == 1, "the self-read returned the previous value, 0")
        #expect(property.value == 1, "the self-read is not a dependency: nothing to recompute")
        #expect(runs.value == 2)
    }

    @Test func anIndirectCycleTerminatesUnobservedAndObserved() {
        // p reads q, q reads p. Both have values before the cycle closes, so no precondition
        // failure: each read of the cycle returns (this used to recurse until the stack ran out).
        for observed in [false, true] {
            let flag = MutableProperty(false)
            let box = PropertyBox<Int>()
            defer { box.property = nil }  // the test's own cycle (p -> box -> q -> p)
            let p = Property<Int> { flag.value ? box.property!.value + 1 : 0 }
            let q = Property<Int> { p.value }
            box.property = q
            let seen = Recorder<Int>()
            let subscription = observed ? p.observe { seen.append($0) } : nil
            #expect(q.value == 0)
            flag.value = true
            let first = p.value
            #expect(first >= 1, "p computed from q's previous value")
            for _ in 0..<3 {
                _ = p.value
                _ = q.value
            }
            flag.value = false
            #expect(p.value == 0, "the cycle opens again once p stops reading q")
            #expect(q.value == 0)
            if observed { #expect(seen.values.last == 0) }
            subscription?.cancel()
        }
    }

    @Test func aCycleHitDuringTheFirstComputationIsAPreconditionFailure() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let box = PropertyBox<Int>()
            let property = Property<Int> { box.property!.value + 1 }
            box.property = property
            _ = property.value
        }
        #expect(stderr(of: result).contains("read itself while computing its first value"))
    }

    // MARK: Writes from derived closures

    @Test func aWriteFromADerivedClosureToItsOwnInputSettlesOnTheFinalValue() {
        // Before a derived node was marked valid only after its closure ran, so the write
        // made by the closure was forgotten: the property kept 1 while its input held 2.
        let input = MutableProperty(0)
        let property = Property<Int> {
            let value = input.value
            if value == 1 { input.value = 2 }
            return value
        }
        let seen = Recorder<Int>()
        let subscription = property.observe { seen.append($0) }
        defer { subscription.cancel() }
        input.value = 1
        #expect(input.value == 2)
        #expect(property.value == 2)
        #expect(seen.values == [0, 1, 2], "the observer ends on the final value")

        let unobserved = Property<Int> {
            let value = input.value
            if value == 3 { input.value = 4 }
            return value
        }
        input.value = 3
        #expect(unobserved.value == 3)
        #expect(unobserved.value == 4, "the next read recomputes from the written value")
    }

    @Test func aWriteFromADerivedClosureIsDeliveredAfterTheReadThatRanIt() {
        let input = MutableProperty(1)
        let log = MutableProperty(0)
        let events = Recorder<String>()
        let derived = Property<Int> {
            let value = input.value
            log.value = value
            return value * 10
        }
        let subscription = log.observe(emitsCurrentValue: false) { events.append("log observer \($0)") }
        defer { subscription.cancel() }
        events.append("read \(derived.value)")
        #expect(events.values == ["log observer 1", "read 10"], "delivered before the read returned, after the closure")
        #expect(log.value == 1)
    }

    // MARK: modify re-entrance

    @Test func modifyMayWriteOtherPropertiesWhoseObserversRunAfterItReturns() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let log = Recorder<String>()
        let subscription = b.observe(emitsCurrentValue: false) { log.append("b observer \($0) a=\(a.value)") }
        defer { subscription.cancel() }
        a.modify { value in
            value = 1
            b.value = 5
            log.append("body done, b=\(b.value)")
        }
        log.append("modify returned")
        #expect(log.values == ["body done, b=5", "b observer 5 a=1", "modify returned"])
    }

    @Test func aBatchEndingInsideAModifyBodyDeliversWhenModifyReturns() {
        // Used to drain with the graph still locked: the observer ran inside the body.
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let log = Recorder<String>()
        let subscription = b.observe(emitsCurrentValue: false) { log.append("b observer \($0)") }
        defer { subscription.cancel() }
        a.modify { value in
            batch { b.value = 1 }
            log.append("batch ended")
            value = 1
        }
        #expect(log.values == ["batch ended", "b observer 1"])
    }

    @Test func writingAPropertyInsideItsOwnModifyIsAPreconditionFailure() async {
        let set = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = MutableProperty(0)
            property.modify { $0 += 1; property.value = 5 }
        }
        let nested = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = MutableProperty([1], equals: nil)
            property.modify { $0.append(2); property.modify { $0.append(3) } }
        }
        let swapped = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = MutableProperty(0)
            property.modify { _ in _ = property.swap(1) }
        }
        for result in [set, nested, swapped] {
            #expect(stderr(of: result).contains("inside its own modify body"))
        }
    }

    @Test func readingAPropertyInsideItsOwnModifyIsAPreconditionFailure() async {
        let direct = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = MutableProperty(0)
            property.modify { $0 = property.value + 1 }
        }
        let derived = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let property = MutableProperty(0)
            let doubled = property.map { $0 * 2 }
            property.modify { $0 = 1; _ = doubled.value }
        }
        for result in [direct, derived] {
            #expect(stderr(of: result).contains("inside its own modify body"))
        }
    }

    // MARK: combineLatest

    @Test func combineLatestOfAnEmptyArrayIsAConstantEmptyArray() {
        let combined = combineLatest([Property<Int>]())
        let seen = Recorder<[Int]>()
        let subscription = combined.observe { seen.append($0) }
        defer { subscription.cancel() }
        let unrelated = MutableProperty(0)
        unrelated.value = 1
        #expect(combined.value == [])
        #expect(seen.values == [[]])
    }
}

/// What an exit test's process wrote to standard error.
func stderr(of result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

final class PropertyBox<Value: Sendable>: @unchecked Sendable {
    var property: Property<Value>?
}
