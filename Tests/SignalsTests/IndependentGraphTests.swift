import Foundation
import ReactiveSourcesTesting
import Testing
@testable import Signals

/// Independent graphs (sharing no node) have independent locks; closures that read two
/// graphs join them, from any side and any thread, without deadlock.
@Suite("Independent graphs", .timeLimit(.minutes(10)))
struct IndependentGraphTests {
    @Test func graphBAcceptsWritesAndDeliversWhileADerivedClosureOfGraphAIsBlocked() async {
        let a = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocking = Property { () -> Int in
            let value = a.value
            if value == 1 {
                entered.signal()
                release.wait()
            }
            return value * 10
        }
        let seenA = Recorder<Int>()
        let subscriptionA = blocking.observe { seenA.append($0) }
        let b = MutableProperty(0)
        // A closure-derived property (inputs unknown until it runs) and a map of it.
        let doubled = Property { b.value * 2 }.map { $0 }
        let seenB = Recorder<Int>()
        let subscriptionB = doubled.observe { seenB.append($0) }

        // A thread writes graph A; its delivery pulls `blocking`, whose closure blocks with
        // graph A's lock held until `release` is signalled.
        let writerA = Task { await onOwnThread { a.value = 1 } }
        await onOwnThread { entered.wait() }

        // Graph B meanwhile: a write recomputes its derived property and returns after its
        // observer ran (the observer runs on the writing thread before the write returns).
        await onOwnThread { b.value = 21 }
        #expect(seenB.values == [0, 42])
        #expect(doubled.value == 42)
        #expect(seenA.values == [0], "graph A's observer has not seen the blocked value yet")

        release.signal()
        await writerA.value
        #expect(seenA.values == [0, 10])
        subscriptionA.cancel()
        subscriptionB.cancel()
    }

    @Test func aClosureReadingTwoGraphsJoinsThemAndStaysGlitchFree() {
        let a = MutableProperty(1)
        let b = MutableProperty(2)
        let tenfold = a.map { $0 * 10 }
        let hundredfold = b.map { $0 * 100 }
        let sum = Property { tenfold.value + hundredfold.value }
        let seen = Recorder<Int>()
        let subscription = sum.observe { seen.append($0) }
        batch {
            a.value = 3
            b.value = 4
        }
        a.value = 5
        #expect(seen.values == [210, 430, 450])
        subscription.cancel()
    }

    /// New derived properties whose inputs are unknown until they run start in a shared
    /// nursery and move to the graph of what they read first: made one after the other on
    /// one thread over two graphs, they do not join those graphs.
    @Test func newClosurePropertiesOverTwoGraphsStayInTheirOwnGraphs() async {
        let a = MutableProperty(1)
        let b = MutableProperty(2)
        let constant = Property { 7 }
        let overA = Property { a.value + constant.value }
        let overB = Property { b.value * 10 }
        let mappedB = Property { overB.value + 1 }.map { $0 * 2 }
        #expect(overA.value == 8)
        #expect(mappedB.value == 42)
        let seen = Recorder<Int>()
        let subscription = Property { b.value + 100 }.observe { seen.append($0) }
        #expect(seen.values == [102])
        // Graph A blocked inside a closure: graph B's nodes made above still work.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocking = Property { () -> Int in
            let value = a.value
            if value == 2 {
                entered.signal()
                release.wait()
            }
            return value
        }
        #expect(blocking.value == 1)
        let writer = Task { await onOwnThread { () -> Int in a.value = 2; return blocking.value } }
        await onOwnThread { entered.wait() }
        await onOwnThread { b.value = 3 }
        #expect(mappedB.value == 62)
        #expect(seen.values == [102, 103])
        release.signal()
        #expect(await writer.value == 2)
        #expect(overA.value == 9)
        subscription.cancel()
    }

    /// Derived nodes of graph A that read graph B and of B that read A, first evaluated from
    /// two threads at once while two others write A and B (each write recomputes a slow
    /// observed node under its graph's lock): the joins happen from both sides under
    /// contention. Every round must end (no deadlock) with consistent values.
    @Test func closuresJoiningGraphsFromOppositeSidesOnSeveralThreadsEndConsistent() async {
        let seed = MixedStressTests.seed
        for round in 0..<150 {
            let a = MutableProperty(0)
            let b = MutableProperty(0)
            let slowA = a.map { value in (0..<200).reduce(value) { $0 &+ $1 & 1 } }
            let slowB = b.map { value in (0..<200).reduce(value) { $0 &+ $1 & 1 } }
            let keep = [slowA.observe { _ in }, slowB.observe { _ in }]
            let aReadingB = a.map { $0 * 1000 + b.value }
            let bReadingA = b.map { $0 * 1000 + a.value }
            let both = Property { aReadingB.value + bReadingA.value }
            let lastBoth = MutableProperty(-1)
            let started = Counter()
            await onThreads(4) { thread in
                var random = SplitMix64(seed: seed &+ UInt64(round * 4 + thread))
                // Line the threads up (a spin on a counter, not a timed wait).
                started.increment()
                while started.value < 4 {}
                for step in 0..<10 {
                    switch thread {
                    case 0: a.value = Int.random(in: 0..<100, using: &random)
                    case 1: b.value = Int.random(in: 0..<100, using: &random)
                    case 2: _ = aReadingB.value
                    default:
                        if step == 0 {
                            _ = bReadingA.value
                        } else {
                            _ = both.value
                        }
                    }
                }
            }
            let subscription = both.observe { lastBoth.value = $0 }
            a.value += 1
            let expected = a.value * 1000 + b.value + b.value * 1000 + a.value
            #expect(aReadingB.value == a.value * 1000 + b.value, "seed \(seed), round \(round)")
            #expect(both.value == expected, "seed \(seed), round \(round)")
            #expect(lastBoth.value == expected, "seed \(seed), round \(round): the observer saw the final value")
            subscription.cancel()
            keep.forEach { $0.cancel() }
        }
    }

    /// A derived closure blocked in graph A while another thread's closure in graph B reads
    /// A: B's thread waits for A (the two are joined by that closure), and both finish.
    @Test func aClosureOfGraphBThatReadsABlockedGraphAWaitsAndFinishes() async {
        let a = MutableProperty(0)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let blocking = Property { () -> Int in
            let value = a.value
            if value == 1 {
                entered.signal()
                release.wait()
            }
            return value
        }
        _ = blocking.value
        let b = MutableProperty(5)
        let bReadingA = b.map { $0 + a.value }
        #expect(bReadingA.value == 5)
        let reader = Task { await onOwnThread { () -> Int in a.value = 1; return blocking.value } }
        await onOwnThread { entered.wait() }
        // This write and read only touch graph B until the closure reads `a`.
        let joined = Task { await onOwnThread { () -> Int in b.value = 6; return bReadingA.value } }
        release.signal()
        #expect(await reader.value == 1)
        #expect(await joined.value == 7)
    }
}
