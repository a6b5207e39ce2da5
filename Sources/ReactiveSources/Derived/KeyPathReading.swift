/// Reads the value at `keyPath` of `root`. Inlinable, so that a caller compiled for `Root`
/// and `Value` reads a stored property of a struct (a key path `MemoryLayout.offset(of:)`
/// gives an offset for) as one load at that offset; any other key path is walked by the
/// runtime (`root[keyPath: keyPath]`, many times slower). O(1).
@inlinable
func readKeyPath<Root, Value>(_ keyPath: KeyPath<Root, Value>, of root: Root, offset: Int?) -> Value {
    guard let offset else { return root[keyPath: keyPath] }
    return withUnsafePointer(to: root) { UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee }
}

/// A closure reading the value at `keyPath` (see ``readKeyPath(_:of:offset:)``), for the key and
/// comparator closures that derived sources call per row. Build it in inlinable code.
@inlinable
func reader<Root, Value>(of keyPath: KeyPath<Root, Value>) -> @Sendable (Root) -> Value {
    // Key paths are immutable values; this one is only ever read.
    nonisolated(unsafe) let keyPath = keyPath
    let offset = MemoryLayout<Root>.offset(of: keyPath)
    return { readKeyPath(keyPath, of: $0, offset: offset) }
}
