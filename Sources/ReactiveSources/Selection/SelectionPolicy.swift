/// How many objects may be selected in one section (the min/max selection of the data
/// source adapter pattern).
///
/// Selecting beyond ``maximum`` evicts the oldest selection in that section; deselecting
/// below ``minimum`` is refused.
public struct SelectionPolicy: Sendable, Hashable {
    /// The fewest objects that must stay selected once reached (deselecting below is refused).
    public let minimum: Int
    /// The most objects selected at once; `nil` means no limit; 0 makes the section unselectable.
    public let maximum: Int?

    /// Creates a policy. A negative `minimum` is treated as 0, and a `maximum` below
    /// `minimum` is raised to it.
    public init(minimum: Int = 0, maximum: Int? = nil) {
        let minimum = max(0, minimum)
        self.minimum = minimum
        self.maximum = maximum.map { max($0, minimum) }
    }

    /// At most one selected object; selecting another replaces it.
    public static let single = SelectionPolicy(minimum: 0, maximum: 1)
    /// Any number of selected objects.
    public static let multiple = SelectionPolicy(minimum: 0, maximum: nil)
    /// Nothing can be selected.
    public static let none = SelectionPolicy(minimum: 0, maximum: 0)
}
