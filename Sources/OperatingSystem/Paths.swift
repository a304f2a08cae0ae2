import Glibc

/// Questions about paths that only the file system can answer.
public enum Paths {
    /// The canonical absolute path of `path`, links resolved (`realpath(3)`);
    /// `nil` when it does not exist or cannot be resolved.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether something exists at `path` (`stat(2)`, links followed).
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// Whether `path` is a file this process may execute (`access(2)`, X_OK).
    public static func isExecutable(_ path: String) -> Bool {
        // Harmless: a candidate that cannot be examined is not run; the caller goes on or says the program is missing.
        guard (try? status(path))?.type == .regular else { return false }
        return access(path, X_OK) == 0
    }

    /// What `stat(2)` (links followed) or, with `followLinks: false`,
    /// `lstat(2)` says of `path`.
    public static func status(_ path: String, followLinks: Bool = true) throws(SystemError) -> FileStatus {
        var result = stat()
        try Syscall.minusOne(followLinks ? "stat" : "lstat", path: path) {
            followLinks ? stat(path, &result) : lstat(path, &result)
        }
        return FileStatus(result)
    }

    /// The absolute path of the running executable (/proc/self/exe), or
    /// `nil` where it cannot be read.
    public static func executable() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}
