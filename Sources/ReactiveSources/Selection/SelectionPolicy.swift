/// How many objects may be selected in one section (the min/max selection of the data
/// source adapter pattern), and whether the selection fills itself up to the minimum.
///
/// Selecting beyond ``maximum`` evicts the oldest selection in that section; deselecting
/// below ``minimum`` is refused. With ``Preselection/first``, a section that has fewer than
/// ``minimum`` selected objects is topped up with its first unselected objects (see
/// ``Preselection``), so a minimum-1 section is valid as soon as it has a row.
public struct SelectionPolicy: Sendable, Hashable {
    /// What a section with fewer than ``minimum`` selected objects does about it.
    public enum Preselection: Sendable, Hashable {
        /// Nothing: the minimum only refuses explicit deselection (a section starts empty,
        /// and a deleted selected row leaves it below its minimum).
        case none
        /// Selects its first unselected objects, in row order, until ``minimum`` are selected
        /// or none is left: when the selection is created, when the section appears or gains
        /// rows, when a selected row is deleted (its place goes to the first row not
        /// selected), and after ``Selection/clear()``. Does nothing when ``minimum`` is 0.
        case first
    }

    /// The fewest objects that must stay selected once reached (deselecting below is refused).
    public let minimum: Int
    /// The most objects selected at once; `nil` means no limit; 0 makes the section unselectable.
    public let maximum: Int?
    /// Whether the section fills itself up to ``minimum`` (see ``Preselection``).
    public let preselection: Preselection

    /// Creates a policy. A negative `minimum` is treated as 0, and a `maximum` below
    /// `minimum` is raised to it.
    public init(minimum: Int = 0, maximum: Int? = nil, preselection: Preselection = .none) {
        let minimum = max(0, minimum)
        self.minimum = minimum
        self.maximum = maximum.map { max($0, minimum) }
        self.preselection = preselection
    }

    /// At most one selected object; selecting another replaces it.
    public static let single = SelectionPolicy(minimum: 0, maximum: 1)
    /// Exactly one selected object once the section has a row: the first row is preselected,
    /// selecting another replaces it, and deselecting it is refused (a "size" picker).
    public static let exactlyOne = SelectionPolicy(minimum: 1, maximum: 1, preselection: .first)
    /// Any number of selected objects.
    public static let multiple = SelectionPolicy(minimum: 0, maximum: nil)
    /// Nothing can be selected.
    public static let none = SelectionPolicy(minimum: 0, maximum: 0)

    /// At most `maximum` selected objects (a negative `maximum` is treated as 0); selecting
    /// one more evicts the oldest (a "two toppings at most" section).
    public static func upTo(_ maximum: Int) -> SelectionPolicy {
        SelectionPolicy(minimum: 0, maximum: max(0, maximum))
    }
}
