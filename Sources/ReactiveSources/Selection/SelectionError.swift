import Foundation

/// Why a selection change was refused. Nothing changes when it is thrown.
public enum SelectionError: Error, Equatable, CustomStringConvertible {
    /// The index path does not point at a row of the current snapshot.
    case invalidPath(RowPath)
    /// The row is a placeholder, which cannot be selected.
    case placeholderRow(RowPath)
    /// The section's policy allows no selection.
    case notSelectable(section: Int)
    /// Deselecting would leave fewer than `minimum` objects selected in the section.
    case belowMinimum(section: Int, minimum: Int)

    /// A one-line message that says what went wrong and where.
    public var description: String {
        switch self {
        case .invalidPath(let path): return "No row at section \(path.section), item \(path.item)."
        case .placeholderRow(let path): return "The row at section \(path.section), item \(path.item) is a placeholder and cannot be selected."
        case .notSelectable(let section): return "Section \(section) does not allow selection."
        case .belowMinimum(let section, let minimum):
            return "Section \(section) must keep at least \(minimum) selected object\(minimum == 1 ? "" : "s")."
        }
    }
}
