import Glibc

/// Facts about the running process that commands need.
enum SystemPaths {
    /// The absolute path of the running executable (/proc/self/exe), or
    /// `nil` where it cannot be read.
    static func executablePath() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
