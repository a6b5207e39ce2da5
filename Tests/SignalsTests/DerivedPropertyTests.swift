import Testing
@testable import Signals

@Suite("Derived properties")
struct DerivedPropertyTests {
    @Test func mapAndCombineLatestFollowTheirSources() {
        let a = MutableProperty(1)
        let b = MutableProperty("x")
        let doubled = a.map { $0 * 2 }
        let both = combineLatest(doubled, b)
        #expect(both.value == (2, "x"))
        a.value = 5
        b.value = "y"
        #expect(both.value == (10, "y"))
        let array = combineLatest([a, MutableProperty(7)])
        #expect(array.value == [5, 7])
    }

    @Test func combineLatestKeepsInputsOnlyItRefersTo() {
        let source = MutableProperty(1)
        // The mapped inputs are referred to by the combined property alone.
        let combined = combineLatest((1...3).map { factor in source.map { $0 * factor } })
        let seen = Recorder<[Int]>()
        let subscription = combined.observe { seen.append($0) }
        defer { subscription.cancel() }
        source.value = 2
        source.value = 5
        #expect(combined.value == [5, 10, 15])
        #expect(seen.values == [[1, 2, 3], [2, 4, 6], [5, 10, 15]])
    }

    @Test func autoTrackedClosureDependsOnlyOnWhatItRead() {
        let flag = MutableProperty(true)
        let a = MutableProperty(1)
        let b = MutableProperty(100)
        let runs = Counter()
        let chosen = Property<Int> {
            runs.increment()
            return flag.value ? a.value : b.value
        }
        let seen = Recorder<Int>()
        let subscription = chosen.observe { seen.append($0) }
        defer { subscription.cancel() }
        #expect(runs.value == 1)

        b.value = 200 // not read while flag is true
        #expect(runs.value == 1)
        a.value = 2
        #expect(runs.value == 2)

        flag.value = false
        #expect(runs.value == 3)
        a.value = 3 // no longer read
        #expect(runs.value == 3)
        b.value = 300
        #expect(runs.value == 4)
        #expect(seen.values == [1, 2, 200, 300])
    }

    @Test func diamondRecomputesTheJoinOnceAndObserversSeeOneConsistentValue() {
        let a = MutableProperty(1)
        let b = a.map { $0 + 1 }
        let c = a.map { $0 * 10 }
        let joins = Counter()
        let d = Property<String> {
            joins.increment()
            return "\(b.value)/\(c.value)"
        }
        let seen = Recorder<String>()
        let subscription = d.observe { seen.append($0) }
        defer { subscription.cancel() }
        for value in 2...5 { a.value = value }
        #expect(joins.value == 5, "one run for the first read plus one per write")
        #expect(seen.values == ["2/10", "3/20", "4/30", "5/40", "6/50"])
    }

    @Test func combineLatestIsGlitchFreeInADiamond() {
        let a = MutableProperty(1)
        let pair = combineLatest(a.map { $0 }, a.map { -$0 })
        let seen = Recorder<Int>()
        let subscription = pair.observe { seen.append($0.0 + $0.1) }
        defer { subscription.cancel() }
        for value in 2...20 { a.value = value }
        #expect(seen.count == 20)
        #expect(seen.values.allSatisfy { $0 == 0 }, "never a mix of old and new values")
    }

    @Test func unobservedDerivedPropertiesAreLazy() {
        let a = MutableProperty(1)
        let runs = Counter()
        let derived = Property<Int> {
            runs.increment()
            return a.value * 2
        }
        for value in 2...100 { a.value = value }
        #expect(runs.value == 0, "nothing computes on writes when nobody reads or observes")
        #expect(derived.value == 200)
        #expect(runs.value == 1)
        #expect(derived.value == 200)
        #expect(runs.value == 1, "a clean value is not recomputed on read")
        let unrelated = MutableProperty(0)
        unrelated.value = 1
        #expect(derived.value == 200)
        #expect(runs.value == 1, "writes elsewhere do not dirty it")
        a.value = 7
        #expect(derived.value == 14)
        #expect(runs.value == 2)
    }

    @Test func equalRecomputedValuesStopPropagation() {
        let a = MutableProperty(1)
        let parity = a.map { $0 % 2 }
        let downstreamRuns = Counter()
        let label = Property<String> {
            downstreamRuns.increment()
            return parity.value == 0 ? "even" : "odd"
        }
        let seen = Recorder<String>()
        let subscription = label.observe { seen.append($0) }
        defer { subscription.cancel() }
        a.value = 3
        a.value = 5
        #expect(downstreamRuns.value == 1, "parity stayed 1: nothing downstream recomputed")
        a.value = 6
        #expect(downstreamRuns.value == 2)
        #expect(seen.values == ["odd", "even"])
    }

    @Test func customEqualityCutsOff() {
        let a = MutableProperty(1.0)
        let rounded = a.skipRepeats { abs($0 - $1) < 0.5 }
        let seen = Recorder<Double>()
        let subscription = rounded.observe { seen.append($0) }
        defer { subscription.cancel() }
        a.value = 1.2
        a.value = 2.0
        #expect(seen.values == [1.0, 2.0])
    }

    @Test func flatMapSwitchesToTheLatestInnerProperty() {
        let first = MutableProperty([1])
        let second = MutableProperty([2])
        let useSecond = MutableProperty(false)
        let current = useSecond.flatMap { $0 ? second.readOnly : first.readOnly }
        let seen = Recorder<[Int]>()
        let subscription = current.observe { seen.append($0) }
        defer { subscription.cancel() }
        first.value = [1, 1]
        useSecond.value = true
        first.value = [1, 1, 1] // the old inner property no longer matters
        second.value = [2, 2]
        #expect(seen.values == [[1], [1, 1], [2], [2, 2]])
    }

    @Test func reducingPropertyGetsThePreviousValue() {
        let a = MutableProperty(1)
        let history = Property<[Int]>(reducing: []) { previous in previous + [a.value] }
        let subscription = history.observe { _ in }
        defer { subscription.cancel() }
        a.value = 2
        a.value = 3
        #expect(history.value == [1, 2, 3])
    }

    @Test func combinePreviousAndNegate() {
        let a = MutableProperty(true)
        let pairs = a.combinePrevious()
        let negated = a.negate()
        let seen = Recorder<String>()
        let subscription = pairs.observe { seen.append("\(String(describing: $0.previous)) \($0.current)") }
        defer { subscription.cancel() }
        a.value = false
        #expect(seen.values == ["nil true", "Optional(true) false"])
        #expect(negated.value == true)
    }

    @Test func propertyChangesIsASignalOfNewValuesOnly() {
        let a = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = a.changes.observe { seen.append($0) }
        defer { subscription.cancel() }
        a.value = 1
        a.value = 2
        #expect(seen.values == [1, 2])
    }
}
