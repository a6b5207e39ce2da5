import Foundation
import ReactiveSourcesTesting
import Testing
@testable import Signals

@Suite("Stress: writers, write-back observers, cancellation and teardown")
struct MixedStressTests {
    /// Seconds of stress: `SIGNALS_STRESS_SECONDS` (10 for a long run), 2 by default (CI).
    static var duration: Double {
        ProcessInfo.processInfo.environment["SIGNALS_STRESS_SECONDS"].flatMap(Double.init) ?? 2
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["SIGNALS_STRESS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    }

    @Test func eightWritersWithWriteBackObserversCancellationAndTeardownEndConsistent() async {
        let seed = Self.seed
        // Printed first, so that a crash, a hang or a sanitizer halt can be replayed.
        print("MixedStressTests: SIGNALS_STRESS_SEED=\(seed) SIGNALS_STRESS_SECONDS=\(Self.duration)")
        let sources = (0..<8).map { _ in MutableProperty(0) }
        let sum = Property { sources.reduce(0) { $0 + $1.value } }
        let pairs = (0..<8).map { index in Property { sources[index].value * 100 + sources[(index + 1) % 8].value } }
        let mirrors = (0..<8).map { _ in MutableProperty(-1) }
        let lastSum = MutableProperty(-1)
        // Written back by temporary observers (not checked: a cancelled one may write last).
        let scratch = (0..<8).map { _ in MutableProperty(-1) }
        // Persistent observers that write back: into mirrors, and a clamp into the sources.
        var persistent = pairs.indices.map { index in pairs[index].observe { mirrors[index].value = $0 } }
        persistent.append(sum.observe { value in
            lastSum.value = value
            if value > 700 { sources[0].value = 0 }
        })
        let baseline = sources.map(\.subscriberCount)
        let deadline = Date().addingTimeInterval(Self.duration)

        await onThreads(8) { thread in
            var random = SplitMix64(seed: seed &+ UInt64(thread))
            var mine: [SignalSubscription] = []
            var temporary: [Property<Int>] = []
            while Date() < deadline {
                switch Int.random(in: 0..<10, using: &random) {
                case 0...3:
                    sources[Int.random(in: 0..<8, using: &random)].value = Int.random(in: 0..<100, using: &random)
                case 4:
                    let first = Int.random(in: 0..<8, using: &random), second = Int.random(in: 0..<8, using: &random)
                    let values = (Int.random(in: 0..<100, using: &random), Int.random(in: 0..<100, using: &random))
                    batch {
                        sources[first].value = values.0
                        sources[second].value = values.1
                    }
                case 5:
                    // A temporary chain with an observer that writes back into the graph.
                    let index = Int.random(in: 0..<8, using: &random)
                    let chain = pairs[index].map { $0 + 1 }.map { $0 - 1 }
                    temporary.append(chain)
                    mine.append(chain.observe { scratch[index].value = $0 })
                case 6:
                    if !mine.isEmpty { mine.remove(at: Int.random(in: 0..<mine.count, using: &random)).cancel() }
                case 7:
                    // Teardown of unobserved temporaries, observed or not.
                    temporary.removeAll()
                case 8:
                    _ = pairs[Int.random(in: 0..<8, using: &random)].value
                default:
                    let index = Int.random(in: 0..<8, using: &random)
                    sources[index].modify { $0 = ($0 + 1) % 100 }
                }
            }
            for subscription in mine { subscription.cancel() }
        }

        // Every persistent observer has seen the final values (and written them back).
        for index in 0..<8 {
            #expect(mirrors[index].value == pairs[index].value, "seed \(seed): mirror \(index)")
            #expect(pairs[index].value == sources[index].value * 100 + sources[(index + 1) % 8].value, "seed \(seed): pair \(index)")
        }
        #expect(sum.value == sources.reduce(0) { $0 + $1.value }, "seed \(seed): sum")
        #expect(lastSum.value == sum.value, "seed \(seed): the sum observer saw the final sum")
        #expect(sum.value <= 700, "seed \(seed): the clamp observer ran on the final sum")
        #expect(sources.map(\.subscriberCount) == baseline, "seed \(seed): cancelled chains are unlinked")
        for subscription in persistent { subscription.cancel() }
        persistent.removeAll()
        #expect(sources.allSatisfy { $0.subscriberCount == 0 }, "seed \(seed): everything unlinked")
    }
}
