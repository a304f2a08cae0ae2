import Glibc

/// What the running process was started with: its environment variables
/// and current directory. (Whether a standard stream is a terminal is
/// ``FileDescriptor/isTerminal``.)
public enum ProcessEnvironment {
    /// The process environment (`environ(7)`); for a name given twice the
    /// first wins, as `getenv(3)` does.
    public static func variables() -> [String: String] {
        var result: [String: String] = [:]
        var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        while let current = pointer, let entry = current.pointee {
            // Split on the byte, not on Characters: grapheme breaking of
            // every variable cost each start ~5,000 instructions a variable.
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if result[name] == nil { result[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            pointer = current + 1
        }
        return result
    }

    /// The current directory (`getcwd(3)`); ENOENT when it was deleted,
    /// EACCES when a parent cannot be read.
    public static func currentDirectory() throws(SystemError) -> String {
        var size = 4_096
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            do throws(SystemError) {
                _ = try Syscall.checkNull(call: "getcwd", path: nil) { getcwd(&buffer, buffer.count) }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            } catch where error.errorNumber == ERANGE && size < 1 << 20 {
                size *= 4
            }
        }
    }
}
