import Foundation

/// Why a selection change was refused. Nothing changes when it is thrown.
public enum SelectionError: Error, Equatable, CustomStringConvertible {
    /// The index path does not point at a row of the current snapshot.
    case invalidIndexPath(IndexPath)
    /// The row is a placeholder, which cannot be selected.
    case placeholderRow(IndexPath)
    /// The section's policy allows no selection.
    case notSelectable(section: Int)
    /// Deselecting would leave fewer than `minimum` objects selected in the section.
    case belowMinimum(section: Int, minimum: Int)

    /// A one-line message that says what went wrong and where.
    public var description: String {
        switch self {
        case .invalidIndexPath(let path): return "No row at index path \(Array(path))."
        case .placeholderRow(let path): return "The row at \(Array(path)) is a placeholder and cannot be selected."
        case .notSelectable(let section): return "Section \(section) does not allow selection."
        case .belowMinimum(let section, let minimum):
            return "Section \(section) must keep at least \(minimum) selected object\(minimum == 1 ? "" : "s")."
        }
    }
}
