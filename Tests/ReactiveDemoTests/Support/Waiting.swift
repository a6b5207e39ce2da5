import Signals

/// Returns once `property`'s value satisfies `condition` (checked on the current value and
/// each change): tests wait for state, never for time.
///
/// Throws if the wait ends first: the test's task was cancelled (its time limit, a hang
/// guard, was exceeded). The test then stops there, instead of going on to read state
/// that never came (an index out of range would crash the whole test run).
func waitUntil<Value>(_ property: Property<Value>, _ condition: @Sendable (Value) -> Bool) async throws {
    for await value in property.values where condition(value) {
        return
    }
    throw WaitEnded()
}

/// ``waitUntil(_:_:)`` ended before its condition held (the test's task was cancelled).
struct WaitEnded: Error, CustomStringConvertible {
    var description: String { "the wait ended before its condition held: the test's time limit was exceeded" }
}
