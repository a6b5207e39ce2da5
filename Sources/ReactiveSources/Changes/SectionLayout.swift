/// Where each section of the new snapshot comes from under batch-update semantics, when
/// sections are deleted, inserted and moved.
struct SectionLayout {
    /// For each new index: the old section index, or `nil` for an inserted section.
    var sources: [Int?]
    /// For each old index: its new index, or -1 when it was deleted.
    var oldToNew: [Int]

    /// `nil` when an index is out of range or used twice.
    init?(oldCount: Int, deleted: [Int], inserted: [Int], moved: [(from: Int, to: Int)]) {
        var isRemoved = Array(repeating: false, count: oldCount)
        for index in deleted + moved.map(\.from) {
            guard isRemoved.indices.contains(index), !isRemoved[index] else { return nil }
            isRemoved[index] = true
        }
        let kept = (0..<oldCount).filter { !isRemoved[$0] }
        var slots = [Int??](repeating: nil, count: kept.count + inserted.count + moved.count)
        for index in inserted {
            guard slots.indices.contains(index), slots[index] == nil else { return nil }
            slots[index] = .some(nil)
        }
        for move in moved {
            guard slots.indices.contains(move.to), slots[move.to] == nil else { return nil }
            slots[move.to] = .some(move.from)
        }
        var next = kept.makeIterator()
        for index in slots.indices where slots[index] == nil {
            slots[index] = .some(next.next())
        }
        sources = slots.map { $0! }
        oldToNew = Array(repeating: -1, count: oldCount)
        for (newIndex, source) in sources.enumerated() {
            if let source { oldToNew[source] = newIndex }
        }
    }
}
