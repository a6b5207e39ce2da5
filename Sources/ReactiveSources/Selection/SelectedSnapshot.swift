/// A source's snapshot together with the selection over it: one value, so an observer of
/// ``Selection/state`` gets rows and selection that belong together (the selected paths are
/// paths of this snapshot).
///
/// Lookups never trap: an invalid path or section reads as unselected or empty.
public struct SelectedSnapshot<Object: Hashable & Sendable>: Sendable {
    /// The source's update this selection refers to (snapshot, change set, version).
    public let update: SnapshotUpdate<Object>
    /// The selected rows, ascending (section, then item).
    public let selectedPaths: [RowPath]
    /// Increases whenever the selection changes (selected, deselected, evicted, dropped or
    /// preselected), not when rows merely move; with `update.version` it identifies the value.
    public let revision: UInt64

    /// Creates a value; `selectedPaths` must be ascending paths of object rows of `update`.
    init(update: SnapshotUpdate<Object>, selectedPaths: [RowPath], revision: UInt64) {
        self.update = update
        self.selectedPaths = selectedPaths
        self.revision = revision
    }

    /// The rows.
    public var snapshot: Snapshot<Object> { update.snapshot }

    /// Whether the row at `path` is selected; false for an invalid path. O(log selected).
    public func isSelected(at path: RowPath) -> Bool {
        let index = Self.firstIndex(notBelow: path, in: selectedPaths)
        return index < selectedPaths.count && selectedPaths[index] == path
    }

    /// The selected objects of every section, section by section, in row order.
    /// O(selected × log n).
    public var selectedObjects: [Object] {
        selectedPaths.compactMap(snapshot.object(at:))
    }

    /// The selected objects of the section at index `section`, in row order; empty for an
    /// invalid section.
    public func selectedObjects(inSection section: Int) -> [Object] {
        let start = Self.firstIndex(notBelow: RowPath(item: Int.min, section: section), in: selectedPaths)
        var objects: [Object] = []
        var index = start
        while index < selectedPaths.count && selectedPaths[index].section == section {
            if let object = snapshot.object(at: selectedPaths[index]) { objects.append(object) }
            index += 1
        }
        return objects
    }

    /// The selected objects of the section whose id is `id` (for a ``MultiDataSource``, the
    /// child's name), in row order; empty when no section has that id. O(sections) to find it.
    public func selectedObjects(inSection id: String) -> [Object] {
        guard let section = snapshot.sections.firstIndex(where: { $0.id == id }) else { return [] }
        return selectedObjects(inSection: section)
    }

    /// The selected objects per section index, in row order; sections with none are absent.
    public var bySection: [Int: [Object]] {
        var result: [Int: [Object]] = [:]
        for path in selectedPaths {
            if let object = snapshot.object(at: path) { result[path.section, default: []].append(object) }
        }
        return result
    }

    /// Index of the first path of the ascending `paths` that is not below `path`.
    private static func firstIndex(notBelow path: RowPath, in paths: [RowPath]) -> Int {
        var low = 0
        var high = paths.count
        while low < high {
            let middle = (low + high) / 2
            if paths[middle] < path { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
