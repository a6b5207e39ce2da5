/// How a derived source turns the objects of one parent section into its own: the one thing
/// that differs between Mapped, Filtered and Sorted sources. ``Derivation`` does the rest
/// (sections, placeholders, change sets) the same way for all of them, and their node
/// (``DerivedSourceNode``) versions, load state and forwarding.
///
/// Calls are serial (a derived property's closure never runs concurrently with itself).
protocol RowTransform: AnyObject, Sendable {
    associatedtype Base: Hashable & Sendable
    associatedtype Object: Hashable & Sendable
    /// What the transform keeps per section besides the objects (e.g. which rows pass).
    associatedtype SectionState

    /// One section's objects and state, from the parent's objects.
    func build(_ parent: RowStorage<Base>) -> (objects: RowStorage<Object>, state: SectionState)

    /// Follows one section's `edits` (parent indexes; `old` and `new` are the parent's
    /// objects before and after), updating `objects` and `state`, and says what it did in
    /// its own indexes; `nil` when it cannot (the section is then derived again from
    /// scratch, and `objects` and `state` are dropped). Cost: O(edits · log n), or for a
    /// transform that ``followsLargeChanges``, O(n + edits · log edits) for large edits.
    func follow(
        _ edits: ParentChanges.Edits, old: OldRows<Base>, new: RowStorage<Base>, objects: inout RowStorage<Object>, state: inout SectionState
    ) -> OwnEdits?

    /// Whether ``follow(_:old:new:objects:state:)`` stays cheaper than deriving everything
    /// again and diffing when the edits touch most rows (O(n + k log k) rather than
    /// O(k log n)); the derivation then follows changes of any size instead of rebuilding.
    var followsLargeChanges: Bool { get }

    /// Whether ``follow(_:old:new:objects:state:)`` reads `old`. When it does not, the
    /// derivation keeps no reference to the parent's previous rows (it is passed none), so a
    /// parent that nobody else holds edits its rows in place rather than copying the paths it
    /// changes. When it does, it is given the parent's before-images if the parent records
    /// them (a Simple source does: the derivation then holds no previous rows either), else
    /// the parent's previous rows.
    var readsOldRows: Bool { get }

    /// The parent item shown at own `item`, if the transform can tell cheaply.
    func parentItem(ofOwn item: Int, state: SectionState) -> Int?

    /// After a change of what the closures read, over the same parent objects, the own rows
    /// that left (old own items) and arrived (new own items), both ascending, from the
    /// section's state before (`old`) and after (`new`); `nil` when the transform cannot tell (the rows are
    /// then diffed by identity). Rows that stay are unchanged and keep their order.
    func rederivedEdits(from old: SectionState, to new: SectionState) -> (deleted: [Int], inserted: [Int])?
}

extension RowTransform {
    var followsLargeChanges: Bool { false }
    var readsOldRows: Bool { true }

    func rederivedEdits(from old: SectionState, to new: SectionState) -> (deleted: [Int], inserted: [Int])? { nil }
}

/// What a transform did to one section, in its own indexes: old indexes for rows that
/// went away, new indexes for rows that arrived or changed.
struct OwnEdits {
    /// Removed parent rows that were shown: parent old item and own old item.
    var removed: [(parent: Int, own: Int)] = []
    /// Added parent rows that are shown: parent new item and own new item.
    var added: [(parent: Int, own: Int)] = []
    /// Own old items hidden by a parent update.
    var deleted: [Int] = []
    /// Own new items shown by a parent update.
    var inserted: [Int] = []
    /// Own new items whose object changed in place.
    var updated: [Int] = []
    /// Rows that an update moved (own old -> own new); their object changed too.
    var moved: [(from: Int, to: Int)] = []
}
