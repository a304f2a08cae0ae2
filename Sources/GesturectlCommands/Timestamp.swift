import Glibc

/// Wall-clock timestamps for file names and metadata (UTC).
enum Timestamp {
    /// `2026-11-29T13:26:23Z`.
    static func iso8601() -> String { format("%Y-%m-%dT%H:%M:%SZ") }
    /// `20261129-132623`, for file names.
    static func compact() -> String { format("%Y%m%d-%H%M%S") }

    private static func format(_ pattern: String) -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
