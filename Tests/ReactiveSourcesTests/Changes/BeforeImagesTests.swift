import Foundation
@testable import ReactiveSources
import ReactiveSourcesTesting
import Signals
import Testing

/// Before-images: a Simple source asked for them records, with each row edit, the objects it
/// deleted, updated or moved; `SnapshotUpdate.beforeImages(since:)` composes them over
/// skipped versions. Seeded: every image is the object the first version held at that path.
@Suite("Before-images of row edits")
struct BeforeImagesTests {
    /// One random row edit of `source` (replace, remove, insert, append or move).
    static func edit(_ source: SimpleDataSource<Int>, nextValue: inout Int, using random: inout SplitMix64) throws {
        let count = source.snapshot.numberOfObjects(inSection: 0)
        switch Int.random(in: 0..<5, using: &random) {
        case 0 where count > 0:
            nextValue += 1
            try source.replace(at: Int.random(in: 0..<count, using: &random), with: nextValue)
        case 1 where count > 0:
            try source.remove(at: Int.random(in: 0..<count, using: &random))
        case 2 where count > 1:
            try source.move(from: Int.random(in: 0..<count, using: &random), to: Int.random(in: 0..<count, using: &random))
        case 3:
            nextValue += 1
            source.append([nextValue])
        default:
            nextValue += 1
            try source.insert([nextValue], at: Int.random(in: 0...count, using: &random))
        }
    }

    @Test("composed over up to 20 versions, each image is the first version's object at its path, for every row the change deleted, moved or updated")
    func imagesAreTheFirstVersionsObjects() throws {
        for seed in UInt64(0)..<400 {
            var random = SplitMix64(seed: 0xBEF0_2026_1129 &+ seed)
            var nextValue = 1_000
            let source = SimpleDataSource(objects: Array(0..<Int.random(in: 0...40, using: &random)))
            source.requestBeforeImages()
            defer { source.endBeforeImages() }
            let first = source.updates.value
            let steps = Int.random(in: 1...20, using: &random)
            for _ in 0..<steps { try Self.edit(source, nextValue: &nextValue, using: &random) }
            let last = source.updates.value
            let changes = try #require(last.changes(since: first.version), "seed \(seed)")
            let images = try #require(last.beforeImages(since: first.version), "seed \(seed)")
            let oldPath = changes.oldPathMap()
            var expected = changes.deletedRows + changes.movedRows.map(\.from)
            expected += changes.updatedRows.compactMap { oldPath($0) }
            for path in expected {
                #expect(images.object(at: path, as: Int.self) == first.snapshot.object(at: path), "seed \(seed): \(path)")
            }
            // Nothing else: no image at a path the change left alone.
            var imaged = 0
            images.forEach { path, _ in imaged += 1; #expect(expected.contains(path), "seed \(seed): stray image at \(path)") }
            #expect(imaged == Set(expected).count, "seed \(seed)")
        }
    }

    @Test("recorded only while a Sorted or Sectioned source over it is alive")
    func recordedWhileAsked() throws {
        let source = SimpleDataSource(objects: [3, 1, 2])
        try source.replace(at: 0, with: 4)
        #expect(!source.updates.value.hasBeforeImages)
        var sorted: DerivedDataSource<Int, Int>? = source.sorted(by: <)
        #expect(sorted?.snapshot.sections[0].objects.elementsEqual([1, 2, 4]) == true)
        try source.replace(at: 1, with: 0)
        #expect(source.updates.value.hasBeforeImages)
        #expect(sorted?.snapshot.sections[0].objects.elementsEqual([0, 2, 4]) == true)
        // A filter reads no old rows: it asks for nothing.
        let filtered = source.filter { $0 > 0 }
        _ = filtered.snapshot
        weak let released = sorted
        sorted = nil
        #expect(released == nil)
        try source.remove(at: 0)
        #expect(!source.updates.value.hasBeforeImages)
        #expect(filtered.snapshot.sections[0].objects.elementsEqual([2]))
        // A Sectioned source reads the old rows' keys: it asks too, while it lives.
        var sectioned: SectionedDataSource<Int, Bool>? = SectionedDataSource(child: source, key: { $0 > 1 })
        #expect(sectioned?.snapshot.objectCount == 2)
        try source.replace(at: 0, with: 1)
        #expect(source.updates.value.hasBeforeImages)
        #expect(sectioned?.snapshot.sections.map { Array($0.objects) } == [[1], [2]])
        weak let releasedSections = sectioned
        sectioned = nil
        #expect(releasedSections == nil)
        try source.replace(at: 0, with: 5)
        #expect(!source.updates.value.hasBeforeImages)
    }
}
