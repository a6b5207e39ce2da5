import ReactiveSourcesTesting
import ReactiveSources
import Signals

/// The object of the derived-source cases: 16 bytes, identified by `id`.
public struct DerivedRow: Hashable, Sendable, Identifiable {
    public var id: Int
    public var value: Int

    public init(id: Int, value: Int) {
        self.id = id
        self.value = value
    }
}

/// The sources of the derived-source cases (issue 20), each over `n` rows.
public enum DerivedKind: String, CaseIterable, Sendable {
    case simple = "Simple"
    case mapped = "Mapped (map)"
    case sectioned = "Sectioned (100 keys)"
    case filtered = "Filtered (keeps half)"
    case sorted = "Sorted (key path)"
    case multi = "Multi (100 children)"
    /// Not a source: 100 Simple children observed one by one, the composed snapshot rebuilt
    /// after every child update from the children's row storage (shared, not copied), as a
    /// careful user would without a Multi. It publishes no change set.
    case multiRebuild = "Multi baseline: rebuild sharing storage"

    /// The key of the Sectioned case: 100 keys.
    static func key(_ row: DerivedRow) -> Int { row.id % 100 }
    /// The Mapped case's transform.
    static func mapped(_ row: DerivedRow) -> DerivedRow { DerivedRow(id: row.id, value: row.value &* 2) }
    /// The Filtered case's predicate: keeps about half of the (random) values.
    static func isKept(_ row: DerivedRow) -> Bool { row.value & 1 == 0 }

    /// The source of this kind over `root` (a Multi's is over 100 roots: `root` itself here).
    /// The one place the cases make them: a second call of `sorted(by: \.value)` elsewhere in
    /// the binary changes how the compiler specialises its key-path reads (~1.5 % more
    /// instructions an edit), so every case shares this one.
    func source(over root: SimpleDataSource<DerivedRow>) -> any DataSource<DerivedRow> {
        switch self {
        case .simple, .multi, .multiRebuild: root
        case .mapped: root.map(DerivedKind.mapped)
        case .sectioned: SectionedDataSource(child: root, key: DerivedKind.key, sectionOrder: .ascending)
        case .filtered: root.filter(DerivedKind.isKept)
        case .sorted: root.sorted(by: \.value)
        }
    }
}

/// What is timed: one operation on the Simple root (for Multi, on one child, round robin).
public enum DerivedOp: String, CaseIterable, Sendable {
    /// `append` of 10 rows (one update).
    case append = "10 appended"
    /// 10 `replace(at:with:)` at random known positions, same id, new value (10 updates).
    case edit = "10 edited"
    /// 10 `insert(_:at:)` and 10 `remove(at:)` at random positions (20 updates).
    case insertRemove = "10 inserted + 10 removed"
    /// As `edit`, inside one `batch` (one coalesced update: the skipped versions composed).
    case editBatch = "10 edited, in a batch"
    /// As `insertRemove`, inside one `batch`.
    case insertRemoveBatch = "10 ins. + 10 rem., in a batch"

    /// The bound on t(1M) / t(1k).
    var smallBound: Double { self == .append || self == .edit || self == .editBatch ? 2 : 3 }
}

/// The snapshots a consumer keeps: the last `capacity` it was given (a list keeps the last
/// one). With `verifies`, every change set is applied to the snapshot held before and the
/// result compared with the new one. Touched only from one observer (single-threaded runs).
final class HeldSnapshots: @unchecked Sendable {
    let capacity: Int
    let verifies: Bool
    private(set) var ring: [Snapshot<DerivedRow>] = []
    private var next = 0
    private(set) var latest: Snapshot<DerivedRow>?
    private(set) var deliveries = 0

    init(capacity: Int, verifies: Bool) {
        self.capacity = capacity
        self.verifies = verifies
        ring.reserveCapacity(capacity)
    }

    func receive(_ snapshot: Snapshot<DerivedRow>, _ changes: ChangeSet?) {
        if verifies, let latest, let changes {
            check(changes.applied(to: latest, valuesFrom: snapshot) == snapshot, "the change set turns the held snapshot into the new one")
        }
        deliveries += 1
        latest = snapshot
        if ring.count < capacity {
            ring.append(snapshot)
        } else {
            ring[next] = snapshot
            next = (next + 1) % capacity
        }
    }
}

/// One source of a kind over `n` rows, observed with `observeChanges` by a consumer that holds
/// the snapshots it gets, and the operations of ``DerivedOp`` on its root.
final class DerivedFixture {
    let kind: DerivedKind
    let roots: [SimpleDataSource<DerivedRow>]
    let source: (any DataSource<DerivedRow>)?
    let held: HeldSnapshots
    private var subscriptions: [SignalSubscription] = []
    private var rng: SplitMix64
    private var nextID: Int
    private var step = 0

    init(kind: DerivedKind, n: Int, holding capacity: Int = 1, verifies: Bool, seed: UInt64 = 20) {
        self.kind = kind
        rng = SplitMix64(seed: seed)
        nextID = n
        let childCount = kind == .multi || kind == .multiRebuild ? 100 : 1
        var generator = rng
        roots = (0..<childCount).map { child in
            let perChild = n / childCount
            let objects = (0..<perChild).map { DerivedRow(id: child * perChild + $0, value: Int.random(in: 0..<(1 << 30), using: &generator)) }
            return SimpleDataSource(name: "child \(child)", objects: objects)
        }
        rng = generator
        let root = roots[0]
        switch kind {
        case .multi: source = MultiDataSource(children: roots.map { $0 as any DataSource<DerivedRow> })
        case .multiRebuild: source = nil
        default: source = kind.source(over: root)
        }
        let held = HeldSnapshots(capacity: capacity, verifies: verifies)
        self.held = held
        if let source {
            subscriptions = [source.observeChanges { snapshot, changes in held.receive(snapshot, changes) }]
        } else {
            let rebuilder = Rebuilder(roots)
            subscriptions = roots.map { root in
                root.updates.observe(emitsCurrentValue: false) { _ in held.receive(rebuilder.rebuild(), nil) }
            }
            held.receive(rebuilder.rebuild(), nil)
        }
    }

    deinit {
        for subscription in subscriptions { subscription.cancel() }
    }

    private func newRow() -> DerivedRow {
        defer { nextID += 1 }
        return DerivedRow(id: nextID, value: Int.random(in: 0..<(1 << 30), using: &rng))
    }

    /// Runs `op` once on the next root (round robin over a Multi's children).
    func run(_ op: DerivedOp) {
        let target = roots[step % roots.count]
        step += 1
        switch op {
        case .append:
            target.append((0..<10).map { _ in newRow() })
        case .edit:
            edit(target)
        case .editBatch:
            batch { edit(target) }
        case .insertRemove:
            insertRemove(target)
        case .insertRemoveBatch:
            batch { insertRemove(target) }
        }
    }

    /// Picks 10 rows and their new values from one snapshot, lets it go, then replaces them:
    /// an editor that kept the parent's rows during the edits would make every derived
    /// source's parent copy each path it edits (a version held by the editor, not by the
    /// source or its consumer).
    private func edit(_ target: SimpleDataSource<DerivedRow>) {
        let edits: [(index: Int, row: DerivedRow)] = {
            let objects = target.snapshot.sections[0].objects
            return (0..<10).map { _ in
                let index = Int.random(in: 0..<objects.count, using: &rng)
                return (index, DerivedRow(id: objects[index].id, value: Int.random(in: 0..<(1 << 30), using: &rng)))
            }
        }()
        for edit in edits {
            try! target.replace(at: edit.index, with: edit.row)
        }
    }

    private func insertRemove(_ target: SimpleDataSource<DerivedRow>) {
        var count = target.snapshot.numberOfObjects(inSection: 0)
        for _ in 0..<10 {
            try! target.insert([newRow()], at: Int.random(in: 0...count, using: &rng))
            count += 1
        }
        for _ in 0..<10 {
            try! target.remove(at: Int.random(in: 0..<count, using: &rng))
            count -= 1
        }
    }

    /// Checks that the held snapshot is the source's and equals the one computed from scratch
    /// from the roots' rows. O(n log n).
    func verify() {
        guard let shown = held.latest else { return check(false, "\(kind.rawValue): nothing delivered") }
        if let source { check(shown == source.snapshot, "\(kind.rawValue): the held snapshot is the source's current one") }
        let actual = shown.sections.map { Array($0.objects) }
        let all = Array(roots[0].snapshot.sections[0].objects)
        let expected: [[DerivedRow]]
        switch kind {
        case .simple: expected = [all]
        case .mapped: expected = [all.map(DerivedKind.mapped)]
        case .filtered: expected = [all.filter(DerivedKind.isKept)]
        case .sectioned:
            let groups = Dictionary(grouping: all, by: DerivedKind.key)
            expected = groups.keys.sorted().map { groups[$0]! }
        case .multi, .multiRebuild:
            expected = roots.map { Array($0.snapshot.sections[0].objects) }
        case .sorted:
            // Ties may sit in another order than a stable sort of the current rows gives.
            check(actual.count == 1, "sorted: one section")
            let rows = actual.first ?? []
            check(zip(rows, rows.dropFirst()).allSatisfy { $0.value <= $1.value }, "sorted: rows in order")
            let byID: (DerivedRow, DerivedRow) -> Bool = { ($0.value, $0.id) < ($1.value, $1.id) }
            check(rows.sorted(by: byID) == all.sorted(by: byID), "sorted: the same rows as the parent")
            return
        }
        check(actual == expected, "\(kind.rawValue): the snapshot equals the one computed from scratch")
    }
}

/// Rebuilds a composed snapshot from children's current row storage (shared, O(children)).
final class Rebuilder: @unchecked Sendable {
    let children: [SimpleDataSource<DerivedRow>]
    init(_ children: [SimpleDataSource<DerivedRow>]) { self.children = children }

    func rebuild() -> Snapshot<DerivedRow> {
        Snapshot(sections: children.enumerated().map { index, child in
            SnapshotSection(id: String(index), title: child.name, objects: child.snapshot.sections[0].objects)
        })
    }
}
