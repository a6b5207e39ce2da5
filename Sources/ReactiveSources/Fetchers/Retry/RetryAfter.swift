import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The delay `value` asks for, seen at `now` (a date in the past is zero), or `nil` if
    /// `value` is neither a non-negative whole number nor an HTTP date.
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = httpDate(text) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or the obsolete RFC 850 and asctime
    /// forms, or `nil`.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
