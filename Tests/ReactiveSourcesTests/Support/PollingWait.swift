import Foundation
import Testing

/// The old polling wait, kept only for Chains/ClosureReadsReviewTests.swift (owned by
/// another branch; four waits there name no wakers yet). Delete it with those calls: give
/// each an `until:` (see ``eventually(_:until:_:limit:_:whileWaiting:sourceLocation:)``).
@discardableResult
func eventually(
    _ what: String,
    _ condition: @Sendable () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
    let guardian = HangGuard(120)
    while !condition() {
        if Task.isCancelled || guardian.hasExpired {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return false
        }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}
