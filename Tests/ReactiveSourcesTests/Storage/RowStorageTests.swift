import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

@Suite("RowStorage edge cases and conformances")
struct RowStorageTests {
    @Test("empty storage")
    func empty() {
        let storage = RowStorage<Int>()
        #expect(storage.isEmpty)
        #expect(storage.count == 0)
        #expect(Array(storage) == [])
        var iterator = storage.makeIterator()
        #expect(iterator.next() == nil)
        #expect(storage == [])
        #expect(storage.sharesStorage(with: RowStorage()))
        #expect(storage.description == "[]")
        #expect(storage.invariantViolation() == nil)
    }

    @Test("a single element, added and removed")
    func single() {
        var storage: RowStorage<Int> = [7]
        #expect(storage.count == 1)
        #expect(storage[0] == 7)
        #expect(storage.first == 7 && storage.last == 7)
        storage[0] = 8
        #expect(Array(storage) == [8])
        #expect(storage.remove(at: 0) == 8)
        #expect(storage.isEmpty)
        #expect(storage.invariantViolation() == nil)
        storage.insert(9, at: 0)
        #expect(Array(storage) == [9])
    }

    @Test("bulk builds crossing many levels keep every element in place", arguments: [1, 15, 16, 17, 512, 513, 16_384, 16_385, 40_000])
    func bulkBuild(count: Int) {
        let rows = (0..<count).map(WideRow.init)
        let storage = RowStorage(rows)
        #expect(storage.count == count)
        #expect(storage.invariantViolation() == nil)
        #expect(Array(storage) == rows)
        #expect(storage.elementsEqual(rows))
        for index in stride(from: 0, to: count, by: Swift.max(1, count / 97)) {
            #expect(storage[index] == rows[index])
        }
        #expect(storage[count - 1] == rows[count - 1])
    }

    @Test("forEach visits every element in order, tree and tail, and stops at a throw", arguments: [0, 1, 63, 64, 65, 4_000, 40_001])
    func forEachVisitsInOrder(count: Int) {
        var storage = RowStorage((0..<count).map(WideRow.init))
        storage.append(contentsOf: [WideRow(count), WideRow(count + 1)])
        storage.append(WideRow(count + 2))
        var visited: [WideRow] = []
        storage.forEach { visited.append($0) }
        #expect(visited == Array(storage))
        #expect(visited.count == count + 3)
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try storage.forEach { _ in
                seen += 1
                if seen == (count + 3) / 2 + 1 { throw Stop() }
            }
        }
        #expect(seen == (count + 3) / 2 + 1)
    }

    @Test("for in and an iterator from any offset visit the elements in order, tree and tail", arguments: [0, 1, 63, 64, 65, 4_000, 40_001])
    func iteratorVisitsInOrder(count: Int) {
        var storage = RowStorage((0..<count).map(WideRow.init))
        storage.append(contentsOf: [WideRow(count), WideRow(count + 1)])
        let expected = (0..<(count + 2)).map(WideRow.init)
        var visited: [WideRow] = []
        for row in storage { visited.append(row) }
        #expect(visited == expected)
        for start in [0, 1, count / 2, count, count + 1, count + 2] {
            var iterator = storage.makeIterator(from: start)
            var rest: [WideRow] = []
            while let row = iterator.next() { rest.append(row) }
            #expect(rest[...] == expected[start...])
            #expect(iterator.next() == nil)
        }
    }

    @Test("appends one by one build the same tree shape as a bulk build")
    func appendsArePacked() {
        var appended = RowStorage<WideRow>()
        for id in 0..<20_000 { appended.append(WideRow(id)) }
        let bulk = RowStorage((0..<20_000).map(WideRow.init))
        #expect(appended.height == bulk.height)
        #expect(appended.height == 3)
        #expect(appended == bulk)
        #expect(appended.invariantViolation() == nil)
    }

    @Test("removing everything, at once or piece by piece, leaves an empty storage")
    func removeEverything() {
        let rows = (0..<5_000).map(WideRow.init)
        var all = RowStorage(rows)
        let kept = all
        all.removeSubrange(0..<all.count)
        #expect(all.isEmpty && all.invariantViolation() == nil)
        #expect(Array(kept) == rows)

        var fromFront = kept
        while !fromFront.isEmpty { fromFront.removeSubrange(0..<Swift.min(37, fromFront.count)) }
        #expect(fromFront.invariantViolation() == nil)

        var fromMiddle = kept
        var model = rows
        while !model.isEmpty {
            let middle = model.count / 2
            let range = middle..<Swift.min(model.count, middle + 53)
            fromMiddle.removeSubrange(range)
            model.removeSubrange(range)
            #expect(fromMiddle.invariantViolation() == nil)
        }
        #expect(fromMiddle.isEmpty)

        var cleared = kept
        cleared.removeAll()
        #expect(cleared.isEmpty && Array(kept) == rows)
    }

    @Test("a held version is unchanged by every kind of edit of a copy")
    func persistence() {
        let original = RowStorage(0..<10_000)
        var copy = original
        #expect(copy.sharesStorage(with: original))
        copy.append(10_000)
        copy.insert(-1, at: 5_000)
        copy[42] = 0
        copy.removeSubrange(100..<200)
        copy.replaceSubrange(7_000..<7_010, with: [1, 2, 3])
        #expect(!copy.sharesStorage(with: original))
        #expect(Array(original) == Array(0..<10_000))
        var model = Array(0..<10_000)
        model.append(10_000)
        model.insert(-1, at: 5_000)
        model[42] = 0
        model.removeSubrange(100..<200)
        model.replaceSubrange(7_000..<7_010, with: [1, 2, 3])
        #expect(Array(copy) == model)
    }

    @Test("a uniquely referenced storage changes in place: same root, same tail buffer")
    func inPlace() {
        var storage = RowStorage(0..<100_000)
        let root = storage.root.map(ObjectIdentifier.init)
        storage.insert(-1, at: 50_000)
        storage.insert(contentsOf: [1, 2, 3], at: 7)
        storage.remove(at: 99_000)
        storage.removeSubrange(10..<20)
        storage[12_345] = 0
        storage.replaceSubrange(0..<3, with: [9, 9, 9])
        #expect(storage.root.map(ObjectIdentifier.init) == root)
        storage.append(1)
        let tail = storage.tail.withUnsafeBufferPointer { $0.baseAddress }
        for value in 0..<50 { storage.append(value) }
        #expect(storage.tail.withUnsafeBufferPointer { $0.baseAddress } == tail)
        #expect(storage.root.map(ObjectIdentifier.init) == root)
        #expect(storage.invariantViolation() == nil)
    }

    final class Tracked {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    struct WeakReference {
        weak var object: Tracked?
    }

    @Test("object elements live exactly as long as a version holds them")
    func objectLifetimes() {
        var references: [WeakReference] = []
        do {
            let objects = (0..<3_000).map(Tracked.init)
            references = objects.map { WeakReference(object: $0) }
            var storage = RowStorage(objects)
            let held = storage
            storage.removeSubrange(100..<2_900)
            storage.insert(Tracked(-1), at: 50)
            storage[0] = Tracked(-2)
            for value in 0..<100 { storage.append(Tracked(value)) }
            var sum = 0
            for object in storage { sum += object.value }
            #expect(sum == Array(storage).reduce(0) { $0 + $1.value })
            #expect(held.map(\.value) == Array(0..<3_000))
            #expect(references.allSatisfy { $0.object != nil })
        }
        #expect(references.allSatisfy { $0.object == nil })
    }

    @Test("equality, hashing and printing follow the elements")
    func conformances() {
        let a: RowStorage = [1, 2, 3]
        var b = RowStorage([1, 2])
        #expect(a != b)
        b.append(3)
        #expect(a == b)
        #expect(!a.sharesStorage(with: b))
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a.description == "[1, 2, 3]")
        #expect(RowStorage(["x"]).debugDescription == "RowStorage([\"x\"])")
    }

    @Test("mutable-collection algorithms work in place")
    func mutableCollection() {
        var storage = RowStorage((0..<3_000).reversed())
        let before = storage
        storage.sort()
        #expect(Array(storage) == Array(0..<3_000))
        #expect(Array(before) == Array((0..<3_000).reversed()))
        storage.swapAt(0, 2_999)
        #expect(storage[0] == 2_999 && storage[2_999] == 0)
        storage[10..<20] = storage[20..<30]
        #expect(Array(storage[10..<20]) == Array(20..<30))
        storage.replaceSubrange(0..<10, with: [5])
        #expect(storage.count == 2_991)
    }

    @Test("copying into a shorter buffer resumes iteration where it stopped")
    func partialCopy() {
        let storage = RowStorage(0..<1_000)
        let buffer = UnsafeMutableBufferPointer<Int>.allocate(capacity: 300)
        defer { buffer.deallocate() }
        var (iterator, copied) = storage._copyContents(initializing: buffer)
        #expect(copied == 300)
        #expect(Array(buffer) == Array(0..<300))
        var rest: [Int] = []
        while let element = iterator.next() { rest.append(element) }
        #expect(rest == Array(300..<1_000))
        var chunks = 0
        var total = 0
        storage.withChunks { chunk in
            chunks += 1
            total += chunk.count
        }
        #expect(total == 1_000 && chunks == 8)
    }

    @Test("copies and iterations that start or stop in the last, partly filled chunk", arguments: [0, 1, 500, 999, 1_000, 1_010, 1_019, 1_020, 1_025])
    func partialCopyOfAppended(stop: Int) {
        var storage = RowStorage(0..<1_000)
        for value in 1_000..<1_020 { storage.append(value) }
        let buffer = UnsafeMutableBufferPointer<Int>.allocate(capacity: stop)
        defer { buffer.deallocate() }
        var (iterator, copied) = storage._copyContents(initializing: buffer)
        #expect(copied == Swift.min(stop, 1_020))
        #expect(Array(buffer.prefix(copied)) == Array(0..<copied))
        var rest: [Int] = []
        while let element = iterator.next() { rest.append(element) }
        #expect(rest == Array(copied..<1_020))
        var chunked: [Int] = []
        storage.withChunks { chunked.append(contentsOf: $0) }
        #expect(chunked == Array(0..<1_020))
        #expect(storage.invariantViolation() == nil)
    }

    /// Random edits of a storage of `Element`s (made from `Int`s by `make`), held versions
    /// checked against `Array` models: the same node layout for elements narrower than a word
    /// (inner nodes then align their entries past the tail's start) and wider-aligned ones.
    static func editNarrowOrAligned<Element: Equatable>(_ make: (Int) -> Element, count: Int, seed: UInt64) -> String? {
        var generator = SplitMix64(seed: seed)
        var model = (0..<count).map(make)
        var storage = RowStorage(model)
        var held: [(RowStorage<Element>, [Element])] = []
        for step in 0..<300 {
            if step % 30 == 0 { held.append((storage, model)) }
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                let at = Int.random(in: 0...model.count, using: &generator)
                let items = (0..<Int.random(in: 1...40, using: &generator)).map { make(step &* 31 &+ $0) }
                storage.insert(contentsOf: items, at: at)
                model.insert(contentsOf: items, at: at)
            case 1 where model.count > 50:
                let start = Int.random(in: 0..<(model.count - 50), using: &generator)
                let range = start..<(start + Int.random(in: 1...50, using: &generator))
                storage.removeSubrange(range)
                model.removeSubrange(range)
            case 2:
                let at = Int.random(in: 0..<model.count, using: &generator)
                storage[at] = make(-step)
                model[at] = make(-step)
            default:
                let item = make(step)
                storage.append(item)
                model.append(item)
            }
            if step % 10 == 0, let violation = storage.invariantViolation() { return "step \(step): \(violation)" }
        }
        if let violation = storage.invariantViolation() { return violation }
        if !storage.elementsEqual(model) { return "storage differs from its model" }
        for (version, expected) in held where !version.elementsEqual(expected) { return "a held version changed" }
        return nil
    }

    @Test("bytes, 2-byte-aligned structs and 16-byte-aligned vectors keep their values through random edits")
    func narrowAndAlignedElements() {
        #expect(Self.editNarrowOrAligned({ UInt8(truncatingIfNeeded: $0) }, count: 20_000, seed: 1) == nil)
        #expect(Self.editNarrowOrAligned({ HalfWords(a: UInt8(truncatingIfNeeded: $0), b: UInt16(truncatingIfNeeded: $0 >> 3)) }, count: 10_000, seed: 2) == nil)
        #expect(Self.editNarrowOrAligned({ SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: $0)) }, count: 3_000, seed: 3) == nil)
        #expect(Self.innerLayoutFits(UInt8.self))
        #expect(Self.innerLayoutFits(HalfWords.self))
        #expect(Self.innerLayoutFits(Int.self))
        #expect(Self.innerLayoutFits(SIMD4<Int32>.self))
        #expect(Self.innerLayoutFits(WideRow.self))
        #expect(Self.innerLayoutFits(Box.self))
    }

    final class Box {}

    /// Whether an inner node's keys and entries are aligned and inside its allocation.
    static func innerLayoutFits<Element>(_: Element.Type) -> Bool {
        typealias Node = RowStorageNode<Element>
        let node = Node.makeInner(height: 1)
        return node.withUnsafeMutablePointerToElements { tail in
            let base = UnsafeRawPointer(tail)
            let keys = base.distance(to: UnsafeRawPointer(node.keys))
            let entries = base.distance(to: UnsafeRawPointer(node.entries))
            let bytes = Node.innerTailCapacity * MemoryLayout<Element>.stride
            return keys >= 0 && Int(bitPattern: node.keys) % MemoryLayout<Int32>.alignment == 0
                && entries >= keys + Node.keyBytes
                && Int(bitPattern: node.entries) % MemoryLayout<Node.Entry>.alignment == 0
                && entries + Node.innerCapacity * MemoryLayout<Node.Entry>.stride <= bytes
        }
    }

    @Test("reads of a four-level tree, dense and after edits, match the rows (the dense read's deepest straight-line case)")
    func fourLevels() {
        // 64-byte rows: 16 to a leaf, so 600,000 rows need four levels.
        let rows = (0..<600_000).map(WideRow.init)
        var storage = RowStorage(rows)
        #expect(storage.height == 4 && storage.root!.isDense)
        var model = rows
        var generator = SplitMix64(seed: 0x4_1E7E15)
        for _ in 0..<2_000 {
            let position = Int.random(in: 0..<model.count, using: &generator)
            #expect(storage[position] == model[position])
        }
        // A few inserts in the middle: the path they touch is no longer dense, the rest is.
        for step in 0..<20 {
            let position = Int.random(in: 0...model.count, using: &generator)
            storage.insert(WideRow(-step), at: position)
            model.insert(WideRow(-step), at: position)
        }
        #expect(storage.invariantViolation() == nil)
        for _ in 0..<2_000 {
            let position = Int.random(in: 0..<model.count, using: &generator)
            #expect(storage[position] == model[position])
        }
    }

    @Test("entries copied and destroyed as raw memory: the child leads each entry, and every node is freed once")
    func rawEntryCopies() {
        // `copyEntries` and `destroyEntries` read the child at offset 0 of each entry.
        #expect(MemoryLayout<RowStorageNode<Int>.Entry>.offset(of: \.child) == 0)
        #expect(MemoryLayout<RowStorageNode<SIMD4<Int32>>.Entry>.offset(of: \.child) == 0)
        weak var oldRoot: RowStorageNode<Int>?
        weak var oldLeaf: RowStorageNode<Int>?
        do {
            var storage = RowStorage(0..<100_000)
            let held = storage
            oldRoot = held.root
            var leaf = held.root!
            while leaf.height > 0 { leaf = leaf.entries[0].child }
            oldLeaf = leaf
            for position in stride(from: 0, to: 100_000, by: 997) { storage[position] = -position }
            storage.insert(-1, at: 5)
            storage.removeSubrange(300..<5_000)
            #expect(held.elementsEqual(0..<100_000))
            #expect(storage.invariantViolation() == nil && held.invariantViolation() == nil)
        }
        #expect(oldRoot == nil && oldLeaf == nil)
    }

    struct HalfWords: Equatable {
        var a: UInt8
        var b: UInt16
    }
}
