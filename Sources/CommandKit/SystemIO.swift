#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few system calls the live ``CommandContext`` needs, each wrapped once.
enum SystemIO {
    /// Writes all of `bytes` to `descriptor` with write(2), continuing after
    /// short writes and retrying EINTR; stops silently on any other error.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Reads `descriptor` with read(2) to its end. Throws when there are
    /// more than `maximumBytes` bytes or read fails (other than EINTR).
    static func readAll(_ descriptor: Int32, maximumBytes: Int) throws(CommandFailure) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return result }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure.failure("cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if result.count + count > maximumBytes {
                throw CommandFailure.failure("standard input is larger than \(maximumBytes) bytes")
            }
            result.append(contentsOf: chunk[..<count])
        }
    }

    /// Whether `descriptor` is a terminal (isatty(3)).
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The current directory (getcwd(3)), or `/` if it cannot be read.
    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The process environment (environ(7)); for a name given twice the
    /// first wins, as getenv(3) does.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            pointer += 1
        }
        return result
    }
}
