import Glibc

/// The wall clock (CLOCK_REALTIME), for timestamps people read: file names
/// and the time a gesture was recorded. Never for measuring durations (use
/// ``MonotonicClock``).
public enum WallClock {
    /// The current UTC time formatted with `strftime(3)` `pattern`, e.g.
    /// `%Y-%m-%dT%H:%M:%SZ`; at most 63 bytes.
    public static func utc(_ pattern: String) -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The current UTC time as ISO 8601, `2026-11-29T13:26:23Z` (what
    /// recordings store as the time they were made).
    public static func iso8601() -> String { utc("%Y-%m-%dT%H:%M:%SZ") }
}
