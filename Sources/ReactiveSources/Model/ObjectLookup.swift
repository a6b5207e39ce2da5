import Synchronization

/// The object -> index path lookup behind ``Snapshot/path(of:)``, shared by the copies of one
/// snapshot value (any mutation of a copy gives it a new or emptied lookup).
///
/// It starts unbuilt, and costs nothing until the first ``path(of:in:)``:
/// - **From scratch**: the first lookup reads every object into a table, O(n).
/// - **Incrementally**: when the snapshot was made from the previous version of its source
///   by a known change set (``SnapshotUpdate/advance(_:)`` and `next(_:changes:)` call
///   ``link(to:changes:)``) and that version's lookup was built, the first lookup builds a
///   ``LookupNode`` link instead: the previous node, the change, and the objects at the rows
///   the change inserted, moved or updated (versions nobody looked up in between, up to
///   ``maxPendingVersions``, are bridged by composing their change sets). O(k log n) for k
///   changed rows; old links are folded together (and the table rebuilt once the changes
///   since it reach half the rows),
///   so a consumer that looks up after every update pays O(k log n) amortised per version,
///   and a lookup walks O(log n) links. A link never holds a snapshot's row storage, only
///   objects.
///
/// Thread safety: the state is behind a mutex, held only to read or swap it (builds run
/// outside it); the nodes are immutable.
final class ObjectLookup<Object: Hashable & Sendable>: Sendable {
    typealias State = ObjectLookupState

    /// Not generic (its nodes are `LookupNode<Object>`s, held as `AnyObject`): a lookup is
    /// made and dropped with every version a source publishes, and in the sources'
    /// unspecialised code a state generic over `Object` cost three runtime metadata lookups
    /// each time.
    private let state = Mutex<State>(.unbuilt)
    /// False while the state is `unbuilt`: lets `invalidate()` and `link(to:changes:)` skip
    /// the lock for a lookup never used.
    private let mayBeBuilt = Atomic<Bool>(false)

    init() {}

    /// Drops the table or link, if any; the next lookup rebuilds it. The caller holds the
    /// only reference to this object. O(1) when the lookup was never built.
    func invalidate() {
        guard mayBeBuilt.load(ordering: .acquiring) else { return }
        state.withLock { $0 = .unbuilt }
        mayBeBuilt.store(false, ordering: .releasing)
    }

    /// The built node, if this lookup has been built.
    var builtNode: LookupNode<Object>? {
        guard mayBeBuilt.load(ordering: .acquiring) else { return nil }
        return state.withLock { state in
            if case let .built(node) = state { return Self.node(node) }
            return nil
        }
    }

    /// How many versions a pending lookup may span (versions nobody looked up in between)
    /// before it gives up and waits for a full build.
    static var maxPendingVersions: Int { 16 }

    /// Records that the snapshot owning this lookup was made by `changes` from the snapshot
    /// owning `previous`. Does nothing unless `previous` is built, or pending on a built one
    /// over fewer than ``maxPendingVersions`` versions (a consumer that never looks objects
    /// up pays one atomic load here), and this lookup is unbuilt. The change set must be
    /// right (as ``SnapshotUpdate`` requires); a wrong one is caught only where a link answers
    /// a path that does not hold the object (then the table is rebuilt). O(1) (copies at most
    /// ``maxPendingVersions`` change-set references).
    func link(to previous: ObjectLookup, changes: ChangeSet) {
        guard previous !== self, previous.mayBeBuilt.load(ordering: .acquiring) else { return }
        let pending: State? = previous.state.withLock { state in
            switch state {
            case .unbuilt: return nil
            case let .built(node): return .pending(base: node, changes: [changes])
            case let .pending(base, earlier):
                guard earlier.count < Self.maxPendingVersions else { return nil }
                return .pending(base: base, changes: earlier + [changes])
            }
        }
        guard let pending else { return }
        state.withLock { state in
            guard case .unbuilt = state else { return }
            state = pending
            mayBeBuilt.store(true, ordering: .releasing)
        }
    }

    /// The path of `object` in `sections` (the snapshot owning this lookup), or `nil`.
    /// For an object present more than once: one of its paths (see ``Snapshot/path(of:)``).
    /// Answers of a link are checked against `sections` (O(log n)); see `LookupNode.find`.
    func path(of object: Object, in sections: [SnapshotSection<Object>]) -> RowPath? {
        let node = resolvedNode(sections)
        let answer = node.find(object)
        if node.isTable { return answer.path }
        switch answer {
        case .absent:
            return nil
        case let .at(path, _) where Self.object(at: path, in: sections) == object:
            return path
        case .at, .unknown:
            // A change set that did not describe its edit (`.at` a path not holding the
            // object), or a repeated object whose tracked occurrence went away: from scratch.
            if case .at = answer { LookupStatistics.mismatches.add(1, ordering: .relaxed) }
            let table = LookupNode<Object>(table: sections)
            state.withLock { $0 = .built(table) }
            return table.find(object).path
        }
    }

    /// The node of `sections`, built now if needed. The build (O(n) for a table) runs outside
    /// the lock, so a source publishing its next version (``link(to:changes:)``) never waits
    /// for it; two threads looking up at once may both build, and the first stored wins.
    private func resolvedNode(_ sections: [SnapshotSection<Object>]) -> LookupNode<Object> {
        let current = state.withLock { $0 }
        let node: LookupNode<Object>
        switch current {
        case let .built(built):
            return Self.node(built)
        case let .pending(base, list):
            // Skipped versions: one change from `base`'s snapshot to this one (`nil` when
            // section changes keep them from composing).
            var changes: ChangeSet? = list.first
            for next in list.dropFirst() {
                changes = changes?.followed(by: next)
            }
            node = changes.flatMap { LookupNode.linking(Self.node(base), changes: $0, sections: sections) } ?? LookupNode(table: sections)
        case .unbuilt:
            node = LookupNode<Object>(table: sections)
        }
        return state.withLock { state in
            if case let .built(stored) = state { return Self.node(stored) }
            state = .built(node)
            mayBeBuilt.store(true, ordering: .releasing)
            return node
        }
    }

    /// The object at `path`, or `nil` (invalid path or placeholder row). O(log n).
    static func object(at path: RowPath, in sections: [SnapshotSection<Object>]) -> Object? {
        guard sections.indices.contains(path.section) else { return nil }
        let objects = sections[path.section].objects
        guard path.item >= 0 && path.item < objects.count else { return nil }
        return objects[path.item]
    }
}

extension ObjectLookup {
    /// A node kept in the state: every node a lookup stores is a `LookupNode<Object>`.
    @inline(__always)
    static func node(_ stored: any AnyObject & Sendable) -> LookupNode<Object> {
        unsafeDowncast(stored, to: LookupNode<Object>.self)
    }
}

/// The state of an ``ObjectLookup``; its nodes are the lookup's `LookupNode<Object>`s.
enum ObjectLookupState: Sendable {
    case unbuilt
    /// Made from the snapshot whose lookup is `base` by `changes` applied in order (more
    /// than one when versions in between were never looked up); resolved (into a link, or
    /// a table when the changes cannot be followed) by the first lookup.
    case pending(base: any AnyObject & Sendable, changes: [ChangeSet])
    case built(any AnyObject & Sendable)
}

/// Counters for tests.
enum LookupStatistics {
    /// Answers of incremental lookups that the snapshot contradicted (a change set that did
    /// not describe its edit), each followed by a rebuild.
    static let mismatches = Atomic<Int>(0)
}

/// One version of a lookup: a full table, or a link to an earlier version's node through the
/// change set between them. Immutable; holds objects and paths, never row storage.
final class LookupNode<Object: Hashable & Sendable>: Sendable {
    /// Where an object was found: the path (the smallest known one) and whether it may be at
    /// other paths too.
    struct Entry: Sendable {
        var path: RowPath
        var repeated: Bool
    }

    enum Answer {
        /// At `path`; `repeated`: maybe at other paths too.
        case at(RowPath, repeated: Bool)
        case absent
        /// Cannot tell without a full table (a repeated object lost its tracked occurrence).
        case unknown

        var path: RowPath? {
            if case let .at(path, _) = self { return path }
            return nil
        }
    }

    struct Link: Sendable {
        let previous: LookupNode
        /// The change from `previous`'s snapshot to this one.
        let changes: ChangeSet
        let translation: PathTranslation
        /// The objects at every row the change inserted, moved or updated (rows of inserted
        /// sections included), by their path here.
        let rows: [RowPath: Object]
        /// `rows` by object.
        let index: [Object: Entry]

        /// Whether the row at `path` here, reached from a row of `previous`, still holds that
        /// row's object: the change did not move or update it (an updated row may now be a
        /// placeholder, absent from `rows`).
        func keeps(_ path: RowPath) -> Bool {
            rows[path] == nil && !translation.updated.contains(path)
        }
    }

    enum Kind: Sendable {
        case table([Object: Entry])
        case link(Link)
    }

    /// Most links a chain may have; a longer one (changes that cannot be folded, such as
    /// section changes) is replaced by a table.
    static var maxDepth: Int { 32 }

    let kind: Kind
    let sectionCount: Int
    /// Rows changed since the last table, as this chain holds them (its links' `weight`s).
    let chainWeight: Int
    /// Rows this link holds or deletes (0 for a table).
    let weight: Int
    /// Links between this node and its table.
    let depth: Int

    var isTable: Bool {
        if case .table = kind { return true }
        return false
    }

    /// A table of every object in `sections`: its first path, and whether it occurs again. O(n).
    init(table sections: [SnapshotSection<Object>]) {
        var table: [Object: Entry] = [:]
        table.reserveCapacity(sections.reduce(0) { $0 + $1.objects.count })
        for (sectionIndex, section) in sections.enumerated() {
            var item = 0
            for object in section.objects {
                if table[object] == nil {
                    table[object] = Entry(path: RowPath(item: item, section: sectionIndex), repeated: false)
                } else {
                    table[object]!.repeated = true
                }
                item += 1
            }
        }
        kind = .table(table)
        sectionCount = sections.count
        chainWeight = 0
        weight = 0
        depth = 0
    }

    private init(link: Link, sectionCount: Int) {
        kind = .link(link)
        self.sectionCount = sectionCount
        weight = max(1, link.rows.count + link.changes.deletedRows.count + link.changes.deletedSections.count)
        chainWeight = link.previous.chainWeight + weight
        depth = link.previous.depth + 1
    }

    private convenience init(previous: LookupNode, changes: ChangeSet, translation: PathTranslation, rows: [RowPath: Object], sectionCount: Int) {
        var index: [Object: Entry] = [:]
        index.reserveCapacity(rows.count)
        for (path, object) in rows {
            if let entry = index[object] {
                index[object] = Entry(path: min(entry.path, path), repeated: true)
            } else {
                index[object] = Entry(path: path, repeated: false)
            }
        }
        self.init(
            link: Link(previous: previous, changes: changes, translation: translation, rows: rows, index: index),
            sectionCount: sectionCount
        )
    }

    /// The node of `sections`, made from `base` (the node of the snapshot `changes` turned
    /// into `sections`) by a link, folded with earlier links; `nil` when a table is the better
    /// (or only) answer: the change set does not fit `base`'s snapshot or `sections`, or the
    /// changes since the last table reach half the rows, or the chain is too long.
    /// O(k log n) for k changed rows (rows of inserted sections count), plus the folds:
    /// amortised O(k log n) per version.
    static func linking(_ base: LookupNode, changes: ChangeSet, sections: [SnapshotSection<Object>]) -> LookupNode? {
        let expectedSections = base.sectionCount - changes.deletedSections.count + changes.insertedSections.count
        guard expectedSections == sections.count,
              let translation = PathTranslation(changes, oldSectionCount: base.sectionCount)
        else { return nil }
        var rows: [RowPath: Object] = [:]
        rows.reserveCapacity(changes.insertedRows.count + changes.movedRows.count + changes.updatedRows.count)
        for section in changes.insertedSections {
            guard sections.indices.contains(section) else { return nil }
            var item = 0
            for object in sections[section].objects {
                rows[RowPath(item: item, section: section)] = object
                item += 1
            }
        }
        func read(_ path: RowPath) -> Bool {
            guard sections.indices.contains(path.section), path.item >= 0, path.item < sections[path.section].rowCount else { return false }
            if path.item < sections[path.section].objects.count {
                rows[path] = sections[path.section].objects[path.item]
            }
            return true
        }
        for path in changes.insertedRows where !read(path) { return nil }
        for move in changes.movedRows where !read(move.to) { return nil }
        for path in changes.updatedRows where !read(path) { return nil }

        var node = LookupNode(previous: base, changes: changes, translation: translation, rows: rows, sectionCount: sections.count)
        // Fold like a binary counter: a link absorbs the link before it while that one is no
        // heavier, so every row is folded O(log versions) times and chains stay short.
        while case let .link(link) = node.kind, case let .link(earlier) = link.previous.kind,
              link.previous.weight <= node.weight,
              let folded = node.folding(earlier, into: link) {
            node = folded
        }
        let objectCount = sections.reduce(0) { $0 + $1.objects.count }
        guard node.chainWeight <= objectCount / 2 + 64, node.depth <= maxDepth else { return nil }
        return node
    }

    /// `earlier` (the link of `link.previous`) and `link` (this node's) as one link; `nil`
    /// when their change sets do not compose (section changes).
    private func folding(_ earlier: Link, into link: Link) -> LookupNode? {
        guard let changes = earlier.changes.followed(by: link.changes),
              let translation = PathTranslation(changes, oldSectionCount: earlier.previous.sectionCount)
        else { return nil }
        var rows = link.rows
        for (path, object) in earlier.rows {
            guard let moved = link.translation.newPath(ofOld: path), link.keeps(moved) else { continue }
            rows[moved] = object
        }
        return LookupNode(previous: earlier.previous, changes: changes, translation: translation, rows: rows, sectionCount: sectionCount)
    }

    /// Where `object` is in this node's snapshot. O(depth x (log k + 1)).
    func find(_ object: Object) -> Answer {
        switch kind {
        case let .table(table):
            guard let entry = table[object] else { return .absent }
            return .at(entry.path, repeated: entry.repeated)
        case let .link(link):
            var survivor: RowPath?
            var survivorRepeated = false
            var lostRepeated = false
            switch link.previous.find(object) {
            case .unknown:
                if let entry = link.index[object] { return .at(entry.path, repeated: true) }
                return .unknown
            case .absent:
                break
            case let .at(path, repeated):
                // A row the change left alone keeps its object; one it moved or updated is in
                // `rows` (with whatever object it now holds).
                if let new = link.translation.newPath(ofOld: path), link.keeps(new) {
                    survivor = new
                    survivorRepeated = repeated
                } else {
                    lostRepeated = repeated
                }
            }
            if let entry = link.index[object] {
                if let survivor { return .at(min(entry.path, survivor), repeated: true) }
                return .at(entry.path, repeated: entry.repeated || lostRepeated)
            }
            if let survivor { return .at(survivor, repeated: survivorRepeated) }
            return lostRepeated ? .unknown : .absent
        }
    }
}
