import Signals

/// A source that shows whichever source a property currently holds (the selected account's
/// inbox): `flatMap(latest)` over sources.
///
/// - **Switching.** When the property changes, one update replaces the old source's sections
///   with the new one's (a change set deleting the old sections and inserting the new ones);
///   load state and load events are the current source's from then on.
/// - **Following.** Between switches, each update of the current source is followed with its
///   own change set (coalesced versions composed, see ``SnapshotUpdate/changes(since:)``);
///   O(size of the change), a diff only when the gap cannot be composed.
/// - **Lifecycle.** `fetchData()`, `cancelFetch()` and `willDisplayRow(at:)` go to the
///   current source. Switching does not fetch or cancel anything.
///
/// Threading: as every ``DataSource``; the property may be written from any thread.
public final class SwitchingDataSource<Object: Hashable & Sendable>: DerivedSourceNode<Object>, DataSource, @unchecked Sendable {
    /// The source's name.
    public let name: String
    /// The source shown now.
    public let current: Property<any DataSource<Object>>

    /// Shows whichever source `current` holds.
    public convenience init(name: String = "", following current: Property<any DataSource<Object>>) {
        self.init(name: name, following: current, diffsSwitches: false)
    }

    /// `diffsSwitches`: a switch is published as a diff by identity (O(n)) instead of
    /// replacing the sections (a query source keeps the rows both queries show).
    init(name: String, following current: Property<any DataSource<Object>>, diffsSwitches: Bool) {
        self.name = name
        self.current = current
        super.init(SwitchFollower(following: current, diffsSwitches: diffsSwitches), upstream: .following(current))
    }
}

extension Property {
    /// A source that follows the source `source(value)` for the current value and switches
    /// when this property changes (see ``SwitchingDataSource``). `source` runs once per change
    /// of this property; return the same instance for the same value to keep its content.
    public func flatMapLatest<Object: Hashable & Sendable>(
        name: String = "", _ source: @escaping @Sendable (Value) -> any DataSource<Object>
    ) -> SwitchingDataSource<Object> {
        SwitchingDataSource(name: name, following: map(source))
    }
}
