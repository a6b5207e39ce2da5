import ReactiveSourcesTesting
import Foundation
import Signals
import Testing
@testable import ReactiveSources

/// Random child edits and selections: after each step a segmented source shows exactly its
/// selected child's snapshot, and every change set its observer got turns the snapshot seen
/// before into the new one. Replay a failure with `RELIABILITY_SEED=<seed>`.
@Suite("Segmented: seeded model")
struct SegmentedModelTests {
    @Test func randomEditsAndSwitchesMatchTheSelectedChild() {
        let seed = reliabilitySeed(default: 0x5E6_2026_1125)
        for sequence in 0..<100 {
            var random = SplitMix64(seed: SplitMix64.mix(seed, UInt64(sequence)))
            if let failure = Self.run(&random, steps: 40) {
                Issue.record("seed \(seed), sequence \(sequence): \(failure)")
                return
            }
        }
    }

    static func run(_ random: inout SplitMix64, steps: Int) -> String? {
        var next = 0
        func fresh(_ count: Int) -> [Int] {
            defer { next += count }
            return Array(next..<(next + count))
        }
        let children = (0..<3).map { index in SimpleDataSource(name: "c\(index)", objects: fresh(Int.random(in: 0..<5, using: &random))) }
        let segmented = SegmentedDataSource(children: children)
        let recorder = ChangeLogRecorder(segmented)
        for step in 0..<steps {
            var operation = ""
            func edit(_ random: inout SplitMix64) {
                let child = children[Int.random(in: 0..<3, using: &random)]
                let count = child.objects.count
                switch Int.random(in: 0..<4, using: &random) {
                case 0: child.append(fresh(Int.random(in: 1...3, using: &random)))
                case 1 where count > 0: _ = try? child.remove(at: Int.random(in: 0..<count, using: &random))
                case 2 where count > 1: try? child.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
                default: child.replaceObjects(with: child.objects.shuffled(using: &random) + fresh(1))
                }
                operation += "edit \(child.name); "
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: edit(&random)
            case 5..<8:
                let index = Int.random(in: -1...3, using: &random)
                operation = "select \(index)"
                segmented.selectedIndex.value = index
            default:
                operation = "batch: "
                batch {
                    edit(&random)
                    segmented.selectedIndex.value = Int.random(in: 0..<3, using: &random)
                    edit(&random)
                }
            }
            let selected = children[min(max(segmented.selectedIndex.value, 0), 2)]
            if segmented.snapshot != selected.snapshot {
                return "step \(step) (\(operation)): shows \(segmented.snapshot.allObjects), selected child has \(selected.objects)"
            }
            if let problem = recorder.allProblems.first { return "step \(step) (\(operation)): \(problem)" }
        }
        return nil
    }
}
