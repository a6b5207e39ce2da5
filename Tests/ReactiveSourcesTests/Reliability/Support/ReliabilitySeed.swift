import Foundation

/// The seed for a randomized reliability test: `RELIABILITY_SEED` from the environment when
/// set (to replay a failure), else `fallback` (so CI runs are reproducible).
func reliabilitySeed(default fallback: UInt64) -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["RELIABILITY_SEED"] {
        let trimmed = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
        if let value = UInt64(trimmed, radix: text.hasPrefix("0x") ? 16 : 10) { return value }
    }
    return fallback
}

/// An integer from the environment, or `fallback`.
func environmentInt(_ name: String, default fallback: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) } ?? fallback
}
