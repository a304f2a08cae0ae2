import Glibc

/// Changing the file system: renaming, linking, deleting, creating folders
/// and temporary files, listing folders. Each call is wrapped once, through
/// the ``Syscall`` funnels, and reports a ``SystemError`` naming the call
/// and the path. Policies built from these (atomic writes) live with their
/// callers.
public enum FileSystem {
    /// `rename(2)`: moves `source` to `destination`, replacing it.
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        try Syscall.minusOne("rename", path: source, detail: "to \(destination)") { Glibc.rename(source, destination) }
    }

    /// `link(2)`: a second name `destination` for `source`; fails with
    /// EEXIST when `destination` exists (it is never replaced).
    public static func link(_ source: String, to destination: String) throws(SystemError) {
        try Syscall.minusOne("link", path: source, detail: "to \(destination)") { Glibc.link(source, destination) }
    }

    /// `unlink(2)`: deletes the name `path` (not a folder).
    public static func unlink(_ path: String) throws(SystemError) {
        try Syscall.minusOne("unlink", path: path) { Glibc.unlink(path) }
    }

    /// `mkdir(2)`: creates one folder; EEXIST when something is there.
    public static func makeDirectory(_ path: String, permissions: UInt32 = 0o755) throws(SystemError) {
        try Syscall.minusOne("mkdir", path: path) { Glibc.mkdir(path, mode_t(permissions)) }
    }

    /// `rmdir(2)`: removes the empty folder `path` (in configfs, a folder
    /// whose attribute files vanish with it).
    public static func removeDirectory(_ path: String) throws(SystemError) {
        try Syscall.minusOne("rmdir", path: path) { Glibc.rmdir(path) }
    }

    /// `symlink(2)`: a symbolic link at `path` pointing to `target`; EEXIST
    /// when something is at `path`.
    public static func makeSymbolicLink(_ path: String, to target: String) throws(SystemError) {
        try Syscall.minusOne("symlink", path: path, detail: "to \(target)") { Glibc.symlink(target, path) }
    }

    /// `mount(2)` of a file system without a device (`configfs`, `tmpfs`)
    /// on the folder `path`, as `mount -t TYPE none PATH` does.
    public static func mountVirtual(type: String, at path: String) throws(SystemError) {
        try Syscall.minusOne("mount", path: path, detail: "-t \(type)") { Glibc.mount("none", path, type, 0, nil) }
    }

    /// Creates and opens a new file named `prefix` followed by six random
    /// letters and digits, as `mkstemp(3)` does (mode 0600, O_EXCL, another
    /// name tried when one is taken) but with O_CLOEXEC from the start, so
    /// that no child spawned meanwhile inherits it (Swift does not see
    /// `mkostemp`). Returns the open descriptor, which the caller closes, and
    /// the file's path.
    public static func createTemporaryFile(prefix: String) throws(SystemError) -> (FileDescriptor, path: String) {
        let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var attempts = 0
        while true {
            let path = prefix + String((0..<6).map { _ in characters.randomElement()! })
            do throws(SystemError) {
                let descriptor = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive], permissions: 0o600)
                return (descriptor, path)
            } catch where error.errorNumber == EEXIST && attempts < 100 {
                attempts += 1
            }
        }
    }

    /// The names in the folder `path` (`opendir`/`readdir`), without `.`
    /// and `..`, in the order the file system gives them.
    public static func contentsOfDirectory(_ path: String) throws(SystemError) -> [String] {
        let directory = try Syscall.checkNull(call: "opendir", path: path) { opendir(path) }
        defer { closedir(directory) }
        var names: [String] = []
        // readdir returns NULL both at the end (errno untouched) and on failure.
        while let entry = try Syscall.optionalResult(call: "readdir", path: path, { readdir(directory) }) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Flushes the folder `path`'s entries to disk (`open` O_DIRECTORY and
    /// `fsync`), so that a rename or unlink in it survives a crash.
    public static func synchronizeDirectory(_ path: String) throws(SystemError) {
        let descriptor = try FileDescriptor.open(path, .directory)
        defer { descriptor.close() }
        try descriptor.synchronize(path: path)
    }

    /// The target of the symbolic link `path` (`readlink(2)`).
    public static func linkTarget(_ path: String) throws(SystemError) -> String {
        var size = 256
        while true {
            var buffer = [UInt8](repeating: 0, count: size)
            let count = try Syscall.minusOne("readlink", path: path) {
                buffer.withUnsafeMutableBufferPointer { pointer in
                    pointer.withMemoryRebound(to: CChar.self) { Glibc.readlink(path, $0.baseAddress!, $0.count) }
                }
            }
            // A full buffer may have cut the target short: try a larger one.
            if count < size { return String(decoding: buffer[0..<count], as: UTF8.self) }
            size *= 4
        }
    }
}

extension FileDescriptor {
    /// `fchmod(2)`: sets the permission bits of the open file.
    public func setPermissions(_ permissions: UInt32, path: String? = nil) throws(SystemError) {
        try Syscall.minusOne("fchmod", path: path ?? description) { fchmod(rawValue, mode_t(permissions)) }
    }

    /// Gives the open file to user `owner` (`fchown`, its group unchanged):
    /// only root may give a file away.
    public func setOwner(_ owner: UInt32, path: String? = nil) throws(SystemError) {
        try Syscall.minusOne("fchown", path: path ?? description) { fchown(rawValue, owner, gid_t(bitPattern: -1)) }
    }
}
