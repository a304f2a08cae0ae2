import OperatingSystem

/// Wall-clock timestamps for file names and metadata (UTC).
enum Timestamp {
    /// `2026-11-29T13:26:23Z`.
    static func iso8601() -> String { WallClock.iso8601() }
    /// `20261129-132623`, for file names.
    static func compact() -> String { WallClock.utc("%Y%m%d-%H%M%S") }
}
