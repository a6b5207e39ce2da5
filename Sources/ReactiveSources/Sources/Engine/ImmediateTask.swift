/// Starts a source's fetch so that the fetcher runs on the calling thread until it first
/// suspends (`Task.immediate`): an HTTP request is handed to URLSession before the call that
/// started the fetch returns, instead of waiting for a pool thread to pick up a new task.
///
/// `Task.immediate` needs macOS 26 / iOS 26 / tvOS 26 / watchOS 26 / visionOS 26 on Apple
/// platforms (Linux always has it); on older systems the fetch starts as a regular `Task`.
enum ImmediateTask {
    /// Starts `operation` as described above and returns its task.
    static func start(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
