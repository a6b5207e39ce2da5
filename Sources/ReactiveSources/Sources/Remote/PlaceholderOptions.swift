/// Which placeholder rows a remote source stores in its section.
public struct PlaceholderOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A ``Placeholder/loading`` row while a fetch runs and no object is shown.
    public static let loading = PlaceholderOptions(rawValue: 1 << 0)
    /// A ``Placeholder/noResults`` row when a fetch finishes with no objects.
    public static let noResults = PlaceholderOptions(rawValue: 1 << 1)
    /// A ``Placeholder/error(message:)`` row after a failed fetch (after any kept objects).
    public static let errors = PlaceholderOptions(rawValue: 1 << 2)

    /// Loading and no-results rows (Instant Cocoa's default).
    public static let `default`: PlaceholderOptions = [.loading, .noResults]
    /// Every placeholder row.
    public static let all: PlaceholderOptions = [.loading, .noResults, .errors]
}
