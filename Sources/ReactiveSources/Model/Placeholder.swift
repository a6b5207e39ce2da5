/// A non-object row shown in a section: the types a view uses to draw a spinner, an empty
/// message or an error.
public enum Placeholder: Hashable, Sendable {
    /// The section's content is loading.
    case loading
    /// More content (the next page) is loading; shown after the objects.
    case loadingMore
    /// The fetch finished with no objects.
    case noResults
    /// The fetch failed; `message` is suitable for display.
    case error(message: String)
}

/// A row of a section: an object, or a placeholder. Placeholders are distinguishable from
/// objects by type, never by convention.
public enum Row<Object: Hashable & Sendable>: Hashable, Sendable {
    /// A row holding one of the source's objects.
    case object(Object)
    /// A placeholder row.
    case placeholder(Placeholder)

    /// The object, or `nil` for a placeholder row.
    @inlinable
    public var object: Object? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The placeholder, or `nil` for an object row.
    @inlinable
    public var placeholder: Placeholder? {
        if case .placeholder(let placeholder) = self { return placeholder }
        return nil
    }
}
