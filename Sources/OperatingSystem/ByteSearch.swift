import Glibc

/// Searching bytes at C speed (`memchr`), even in a debug build, where a
/// byte loop over a 64 MiB request line held a thread for seconds: the one
/// newline search of the daemon's request lines and of the client's
/// reply lines (NDJSON).
public enum ByteSearch {
    /// The index of the first `byte` in `bytes` at or after `start`; `nil`
    /// when there is none.
    public static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start >= 0, start < bytes.count else { return nil }
        return bytes.withUnsafeBytes { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// The index of the first newline (`\n`, NDJSON's separator) at or after `start`.
    public static func newline(in bytes: [UInt8], from start: Int) -> Int? { firstIndex(of: 0x0A, in: bytes, from: start) }
}
