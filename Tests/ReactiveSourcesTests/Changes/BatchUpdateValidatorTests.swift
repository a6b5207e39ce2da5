import Foundation
import ReactiveSources
import ReactiveSourcesTesting
import Testing

@Suite("Batch-update validator and staged change sets")
struct BatchUpdateValidatorTests {
    static func snapshot(_ sections: [(String, [Int])]) -> Snapshot<Int> {
        Snapshot(sections: sections.map { SnapshotSection(id: $0.0, title: $0.0, objects: $0.1) })
    }

    @Test func aSectionMoveWithARowInsertInTheMovedSectionIsFlaggedAndStagedApart() {
        // Sectioned in first-appearance order: inserting 3 (group 1) before [1 (group 0), 2 (group 1)].
        let parent = SimpleDataSource(objects: [10, 21])
        let sectioned = SectionedDataSource(child: parent, key: { $0 % 10 })
        let old = sectioned.snapshot
        let before = sectioned.updates.value.version
        try? parent.insert([31], at: 0)
        let update = sectioned.updates.value
        #expect(update.version == before + 1)
        #expect(update.changes.movedSections == [.init(from: 1, to: 0)])
        #expect(update.changes.needsStaging)
        let problems = BatchUpdateValidator.violations(of: update.changes, from: old, to: update.snapshot)
        #expect(problems.contains { $0.contains("stages(from:to:)") })
        let stages = update.changes.stages(from: old, to: update.snapshot)
        #expect(stages.count == 2)
        #expect(stages[0].changes.insertedRows.isEmpty && !stages[0].changes.movedSections.isEmpty)
        #expect(stages[1].changes.movedSections.isEmpty && stages[1].snapshot == update.snapshot)
        #expect(BatchUpdateValidator.stagedViolations(of: update.changes, from: old, to: update.snapshot).isEmpty)
    }

    @Test func everyRuleIsChecked() {
        let old = Self.snapshot([("a", [1, 2]), ("b", [3])])
        let new = Self.snapshot([("a", [1, 2, 4]), ("b", [3])])
        var good = ChangeSet()
        good.insertedRows = [RowPath(item: 2, section: 0)]
        #expect(BatchUpdateValidator.violations(of: good, from: old, to: new).isEmpty)

        var outOfRange = ChangeSet()
        outOfRange.insertedRows = [RowPath(item: 5, section: 0)]
        #expect(BatchUpdateValidator.violations(of: outOfRange, from: old, to: new).contains { $0.contains("not a row of the new snapshot") })

        var countsOff = ChangeSet()
        countsOff.deletedRows = [RowPath(item: 0, section: 1)]
        #expect(BatchUpdateValidator.violations(of: countsOff, from: old, to: new).contains { $0.contains("rows and the changes give") })

        var twice = ChangeSet()
        twice.insertedRows = [RowPath(item: 2, section: 0), RowPath(item: 2, section: 0)]
        #expect(BatchUpdateValidator.violations(of: twice, from: old, to: new).contains { $0.contains("used twice") })

        var movedAndDeleted = ChangeSet()
        movedAndDeleted.deletedRows = [RowPath(item: 0, section: 0)]
        movedAndDeleted.movedRows = [.init(from: RowPath(item: 0, section: 0), to: RowPath(item: 0, section: 1))]
        #expect(BatchUpdateValidator.violations(of: movedAndDeleted, from: old, to: new).contains { $0.contains("used twice") })

        var inDeletedSection = ChangeSet()
        inDeletedSection.deletedSections = [1]
        inDeletedSection.deletedRows = [RowPath(item: 0, section: 1)]
        #expect(BatchUpdateValidator.violations(of: inDeletedSection, from: old, to: Self.snapshot([("a", [1, 2])])).contains { $0.contains("inside a deleted section") })

        var sectionsOff = ChangeSet()
        sectionsOff.insertedSections = [2]
        #expect(!BatchUpdateValidator.violations(of: sectionsOff, from: old, to: new).isEmpty)

        var badUpdate = ChangeSet()
        badUpdate.updatedRows = [RowPath(item: 9, section: 0)]
        #expect(BatchUpdateValidator.violations(of: badUpdate, from: old, to: old).contains { $0.contains("updated row") })
    }

    @Test func diffsOfRandomSnapshotsAreValidOnceStaged() {
        var random = SplitMix64(seed: reliabilitySeed(default: 24))
        let ids = ["a", "b", "c", "d"]
        func sections(_ random: inout SplitMix64) -> Snapshot<Int> {
            Snapshot(sections: ids.shuffled(using: &random).filter { _ in random.chance(80) }.map { id in
                SnapshotSection(id: id, title: id, objects: (0..<Int.random(in: 0..<6, using: &random)).map { _ in Int.random(in: 0..<12, using: &random) },
                                placeholder: random.chance(20) ? .loadingMore : nil)
            })
        }
        var staged = 0
        for round in 0..<3_000 {
            let old = sections(&random)
            let new = sections(&random)
            let changes = ChangeSet(from: old, to: new)
            if changes.needsStaging { staged += 1 }
            let problems = BatchUpdateValidator.stagedViolations(of: changes, from: old, to: new)
            #expect(problems.isEmpty, "round \(round): \(problems)")
        }
        #expect(staged > 100, "the random snapshots exercise staging (\(staged) staged)")
    }
}
