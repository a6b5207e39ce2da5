import Signals

/// Returns once `property`'s value satisfies `condition` (checked on the current value and
/// each change): tests wait for state, never for time.
func waitUntil<Value>(_ property: Property<Value>, _ condition: @Sendable (Value) -> Bool) async {
    for await value in property.values where condition(value) {
        return
    }
}
