/// The placeholder rules of derived nodes, in one place:
/// - a node that keeps its parent's sections (Mapped, Filtered, Sorted) mirrors each
///   section's placeholder row, and ``followRow(from:to:oldCount:newCount:oldSection:newSection:into:)``
///   says how that row changed;
/// - a node that makes sections of its own (Sectioned) shows, while the parent has no
///   objects, the parent's placeholder alone (``sections(showingPlaceholderOf:)``);
/// - a node that composes children (Multi) ends each child's part with the child's own
///   placeholder, else a row for the child's status (``childPlaceholder(own:hasObjects:state:)``);
/// - a node that follows a parent as it is (Switching) shows the parent's placeholders.
@usableFromInline
enum NodePlaceholders {
    /// The row change of a section's trailing placeholder, from `old` (after `oldCount`
    /// objects in old section `oldSection`) to `new` (after `newCount` in `newSection`).
    static func followRow(
        from old: Placeholder?, to new: Placeholder?, oldCount: Int, newCount: Int,
        oldSection: Int, newSection: Int, into changes: inout ChangeSet
    ) {
        switch (old, new) {
        case (nil, nil): break
        case (.some, nil): changes.deletedRows.append(RowPath(item: oldCount, section: oldSection))
        case (nil, .some): changes.insertedRows.append(RowPath(item: newCount, section: newSection))
        case let (was?, now?): if was != now { changes.updatedRows.append(RowPath(item: newCount, section: newSection)) }
        }
    }

    /// What a node that makes its own sections shows when it has none: one untitled section
    /// with the placeholder of the parent's last section, if it has one, else nothing.
    static func sections<Object>(showingPlaceholderOf parent: Snapshot<Object>) -> [SnapshotSection<Object>] {
        guard let placeholder = parent.sections.last?.placeholder else { return [] }
        return [SnapshotSection(id: "", title: nil, objects: [], placeholder: placeholder)]
    }

    /// The placeholder that ends a child's part of a composed source: the child's own (`own`,
    /// that of its last section); else, when it has objects, the error row of a failed
    /// fetch (a failed refresh keeps the objects and says so); else the row for its status
    /// (loading, or the error of a failed fetch). A cancelled fetch shows nothing.
    @inlinable
    static func childPlaceholder(own: Placeholder?, hasObjects: @autoclosure () -> Bool, state: LoadState) -> Placeholder? {
        if let own { return own }
        if let error = errorPlaceholder(for: state) { return error }
        return hasObjects() ? nil : statusPlaceholder(for: state)
    }

    /// The error row of a fetch that failed (not cancelled).
    @usableFromInline
    static func errorPlaceholder(for state: LoadState) -> Placeholder? {
        if case .failed(let error) = state.status, !error.isCancellation { return .error(message: error.message) }
        return nil
    }

    /// The row for a status with nothing to show: loading while fetching, the error of a
    /// failed fetch.
    @usableFromInline
    static func statusPlaceholder(for state: LoadState) -> Placeholder? {
        switch state.status {
        case .loading, .partiallyLoaded: return .loading
        case .failed(let error) where !error.isCancellation: return .error(message: error.message)
        case .idle, .finished, .failed: return nil
        }
    }
}
