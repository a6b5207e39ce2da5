import Foundation

/// Waits until every box in `boxes` is freed, yielding (then sleeping a millisecond) between
/// checks, for at least `attempts` checks; returns the names of those still alive. Fetch
/// tasks ending after their source was dropped may hold it a moment longer. When sleeping,
/// it also keeps checking for up to a minute (a hang guard: those tasks may wait long for a
/// thread of the cooperative pool on a loaded machine); without sleeping it is a quick check.
///
/// The one polling wait left: a release has no event to wake a wait (the library's tasks
/// drop their last reference after everything they publish), and nothing here may hook
/// `deinit` of the library's types.
func stillAlive(_ boxes: [WeakBox], attempts: Int = 2_000, sleeping: Bool = true) async -> [String] {
    let guardian = HangGuard(sleeping ? 60 : 0)
    var remaining = boxes.filter(\.isAlive)
    var attempt = 0
    while !remaining.isEmpty && (attempt < attempts || !guardian.hasExpired) {
        attempt += 1
        if sleeping { try? await Task.sleep(nanoseconds: 1_000_000) } else { await Task.yield() }
        remaining = remaining.filter(\.isAlive)
    }
    return remaining.map(\.name)
}
