extension Property {
    /// A reducer-style derived property with an equality cut-off: `next` receives the previous
    /// value (`initial` on the first run) and returns the new one; when `equals(old, new)`
    /// is true nothing downstream recomputes and no observer is called.
    public convenience init(
        reducing initial: Value,
        equals: @escaping @Sendable (Value, Value) -> Bool,
        _ next: @escaping @Sendable (_ previous: Value) -> Value
    ) {
        self.init(node: ClosureComputedNode(compute: { previous in next(previous?.pointee ?? initial) }, isEqual: equals))
    }
}
