/// Why a mutation of a ``SimpleDataSource`` was refused. Nothing is changed when it is thrown.
public enum MutationError: Error, Equatable, CustomStringConvertible {
    /// `index` is outside `validRange` (the valid indexes for that operation).
    case indexOutOfRange(index: Int, validRange: ClosedRange<Int>?)

    /// A one-line message that says what went wrong and where.
    public var description: String {
        switch self {
        case .indexOutOfRange(let index, let validRange?):
            return "Index \(index) is out of range; valid indexes are \(validRange.lowerBound)...\(validRange.upperBound)."
        case .indexOutOfRange(let index, nil):
            return "Index \(index) is out of range; the source is empty."
        }
    }
}
