import Foundation
import Synchronization
import Testing
import Signals

/// `Property.value` read from outside any closure, of a watched derived property whose
/// value is trivially copyable, takes no lock: it is read between two loads of its graph's
/// sequence number and thrown away (then read under the lock) unless no thread held the lock
/// meanwhile. These tests read such properties on several threads while another writes, and
/// check what a locked read guarantees: never a torn value, never a value older than a write
/// that returned before the read began, never going back in time on one thread. Run under
/// `--sanitize=thread` by `.ci/sanitizers`.
@Suite("Reads without the lock")
struct UnlockedReadTests {
    /// Three words written together: a read that mixes two writes breaks `check`.
    struct Triple: Equatable, Sendable {
        var x: Int
        var y: Int
        var z: Int

        init(_ x: Int) {
            self.x = x
            y = x &* 3
            z = ~x
        }

        var isWhole: Bool { y == x &* 3 && z == ~x }
    }

    static let writes = 20_000
    static let readers = 3

    @Test func readsOnOtherThreadsWhileOneWritesAreWholeCurrentAndMonotonic() async {
        let source = MutableProperty(0)
        // Watched (observed), so that they stay validated between writes: the case read
        // without the lock. A 24-byte value and an 8-byte one (the two copy paths).
        let triple = source.map { Triple($0) }
        let doubled = Property { source.value &* 2 }
        let observed = Counter()
        let subscriptions = [triple.observe { _ in observed.increment() }, doubled.observe { _ in observed.increment() }]
        let published = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let torn = Recorder<String>()
        let reads = Counter()

        await onThreads(Self.readers + 1) { thread in
            if thread == 0 {
                for value in 1...Self.writes {
                    source.value = value
                    published.store(value, ordering: .releasing)
                }
                done.store(true, ordering: .releasing)
                return
            }
            var lastX = 0
            var lastDoubled = 0
            var count = 0
            while !done.load(ordering: .acquiring) {
                // A write that returned before this read began is seen (or a later one).
                let floor = published.load(ordering: .acquiring)
                let read = triple.value
                let readDoubled = doubled.value
                count += 1
                if !read.isWhole { torn.append("torn \(read)") }
                if read.x < floor { torn.append("x \(read.x) after write \(floor) returned") }
                if read.x < lastX { torn.append("x went back from \(lastX) to \(read.x)") }
                if readDoubled % 2 != 0 || readDoubled < 2 &* floor { torn.append("doubled \(readDoubled) after write \(floor)") }
                if readDoubled < lastDoubled { torn.append("doubled went back from \(lastDoubled) to \(readDoubled)") }
                lastX = read.x
                lastDoubled = readDoubled
            }
            reads.add(count)
        }

        #expect(torn.values.isEmpty, "\(torn.values.prefix(5))")
        #expect(reads.value > 0)
        #expect(triple.value == Triple(Self.writes))
        #expect(doubled.value == 2 * Self.writes)
        withExtendedLifetime(subscriptions) {}
    }

    /// The values read without the lock are those a locked read gives, in the states it
    /// distinguishes: stale after a write inside a batch (not yet validated), recomputed by
    /// the read itself, unwatched, and after the last observer is cancelled.
    @Test func readWithoutTheLockMatchesTheLockedReadInEveryState() {
        let source = MutableProperty(1)
        let runs = Counter()
        let derived = Property { () -> Int in
            runs.increment()
            return source.value &* 10
        }
        #expect(derived.value == 10)
        var subscription: SignalSubscription? = derived.observe { _ in }
        let runsWhileWatched = runs.value
        #expect(derived.value == 10)
        #expect(runs.value == runsWhileWatched, "a watched, validated value is read, not recomputed")
        batch {
            source.value = 2
            // Stale until validated: the read validates it (under the lock).
            #expect(derived.value == 20)
        }
        #expect(derived.value == 20)
        subscription?.cancel()
        subscription = nil
        source.value = 3
        // Unwatched: validated on read.
        #expect(derived.value == 30)
        source.value = 4
        #expect(derived.value == 40)
    }
}
