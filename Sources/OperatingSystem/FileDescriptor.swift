import CSystemShim
import Glibc

/// An open file descriptor: a file, a device node, a pipe, a socket or one
/// of the kernel's event objects (timerfd, eventfd, signalfd).
///
/// A small value, as in swift-system: it does not close itself. Whoever
/// opened it owns it and calls ``close()`` once (the classes that own one,
/// such as an evdev device, do that in `deinit`). Every call reports
/// failure as a ``SystemError`` naming the call and the path.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kernel's number for the descriptor.
    public let rawValue: Int32

    /// Wraps a number (e.g. one a C library handed out).
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Standard input (0).
    public static let standardInput = FileDescriptor(rawValue: 0)
    /// Standard output (1).
    public static let standardOutput = FileDescriptor(rawValue: 1)
    /// Standard error (2).
    public static let standardError = FileDescriptor(rawValue: 2)

    /// `fd N`.
    public var description: String { "fd \(rawValue)" }

    /// How to open a file.
    public struct OpenOptions: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// O_RDONLY (the default).
        public static let readOnly: OpenOptions = []
        /// O_WRONLY.
        public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        /// O_RDWR.
        public static let readWrite = OpenOptions(rawValue: O_RDWR)
        /// O_NONBLOCK.
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// O_CREAT.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// O_EXCL.
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// O_TRUNC.
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// O_APPEND.
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// O_NOFOLLOW.
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_NOCTTY`: a terminal opened never becomes the controlling
        /// terminal (a daemon started as a session leader, handed a
        /// member's pty, would otherwise stop on their ^C).
        public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
        /// O_DIRECTORY.
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// `open(2)` with O_CLOEXEC added (no descriptor leaks into children),
    /// retried on EINTR.
    /// - Parameter deviceIsOpen: report ENODEV as a vanished device.
    public static func open(
        _ path: String, _ options: OpenOptions = .readOnly, permissions: UInt32 = 0o644
    ) throws(SystemError) -> FileDescriptor {
        let number = try Syscall.minusOne("open", path: path) {
            Glibc.open(path, options.rawValue | O_CLOEXEC, mode_t(permissions))
        }
        return FileDescriptor(rawValue: number)
    }

    /// `close(2)`. Errors are ignored: the descriptor is gone either way on
    /// Linux, and retrying after EINTR could close someone else's.
    public func close() { _ = Glibc.close(rawValue) }

    /// `read(2)` into `buffer`, retried on EINTR. Returns the byte count (0
    /// at end of file), or `nil` when a non-blocking descriptor has nothing
    /// (EAGAIN).
    public func read(
        into buffer: UnsafeMutableRawBufferPointer, path: String? = nil, deviceIsOpen: Bool = false
    ) throws(SystemError) -> Int? {
        while true {
            let count = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let errorNumber = errno
            if errorNumber == EINTR { continue }
            if errorNumber == EAGAIN || errorNumber == EWOULDBLOCK { return nil }
            throw SystemError(
                call: "read", path: path ?? description, errorNumber: errorNumber,
                kind: Syscall.kind(of: errorNumber, deviceIsOpen: deviceIsOpen))
        }
    }

    /// Reads up to `maximumCount` bytes (see ``read(into:path:deviceIsOpen:)``).
    public func read(upTo maximumCount: Int, path: String? = nil) throws(SystemError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: maximumCount)
        // withUnsafeMutableBytes does not forward typed throws: carry the result out.
        let outcome: Result<Int?, SystemError> = bytes.withUnsafeMutableBytes { buffer in
            do throws(SystemError) { return .success(try read(into: buffer, path: path)) } catch { return .failure(error) }
        }
        guard let count = try outcome.get() else { return nil }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes all of `bytes` (`write(2)` until done), continuing after short
    /// writes and retrying EINTR, so that the data arrives as one piece
    /// where the kernel allows (a uinput frame). A write of 0 bytes, which
    /// would loop for ever, is reported as EIO.
    /// - Parameter detail: what was written, for the error message.
    public func writeAll(
        _ bytes: UnsafeRawBufferPointer, path: String? = nil, deviceIsOpen: Bool = false, detail: String? = nil
    ) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(rawValue, base + offset, bytes.count - offset)
            if written < 0 {
                let errorNumber = errno
                if errorNumber == EINTR { continue }
                throw SystemError(
                    call: "write", path: path ?? description, errorNumber: errorNumber,
                    kind: Syscall.kind(of: errorNumber, deviceIsOpen: deviceIsOpen),
                    detail: [detail, "\(offset) of \(bytes.count) bytes written"].compactMap { $0 }
                        .joined(separator: ", "))
            }
            if written == 0 {
                throw SystemError(
                    call: "write", path: path ?? description, errorNumber: EIO,
                    detail: "wrote 0 of \(bytes.count - offset) bytes")
            }
            offset += written
        }
    }

    /// Writes all of `bytes` (see ``writeAll(_:path:deviceIsOpen:detail:)``).
    public func writeAll(_ bytes: [UInt8], path: String? = nil) throws(SystemError) {
        let outcome: Result<Void, SystemError> = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { return .success(try writeAll(buffer, path: path)) } catch { return .failure(error) }
        }
        try outcome.get()
    }

    /// Whether the descriptor is a terminal (`isatty(3)`).
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Sets or clears O_NONBLOCK (`fcntl` F_GETFL/F_SETFL).
    public func setNonBlocking(_ nonBlocking: Bool = true) throws(SystemError) {
        let flags = try Syscall.minusOne("fcntl", path: description) { fcntl(rawValue, F_GETFL) }
        let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        if wanted != flags { try Syscall.minusOne("fcntl", path: description) { fcntl(rawValue, F_SETFL, wanted) } }
    }

    /// `fsync(2)`: the data is on the disk when it returns.
    public func synchronize(path: String? = nil) throws(SystemError) {
        try Syscall.minusOne("fsync", path: path ?? description) { fsync(rawValue) }
    }

    /// `fstat(2)`.
    public func status(path: String? = nil) throws(SystemError) -> FileStatus {
        var result = stat()
        try Syscall.minusOne("fstat", path: path ?? description) { fstat(rawValue, &result) }
        return FileStatus(result)
    }

    /// A pipe (`pipe2` with O_CLOEXEC, and O_NONBLOCK on both ends when asked).
    public static func pipe(nonBlocking: Bool = false) throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try Syscall.minusOne("pipe2") { gesturectl_pipe(&ends, nonBlocking ? 1 : 0) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }
}

/// What `stat(2)` says of a file: its type, size and modification time.
public struct FileStatus: Hashable, Sendable {
    /// The kind of file.
    public enum FileType: Hashable, Sendable {
        case regular, directory, symbolicLink, characterDevice, blockDevice, fifo, socket, unknown
    }

    /// The kind of file.
    public var type: FileType
    /// Size in bytes.
    public var size: Int64
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32
    /// Last modification, in seconds since the epoch.
    public var modificationSeconds: Int64
    /// The owner's user id.
    public var userID: UInt32
    /// The group's id.
    public var groupID: UInt32
    /// The device and inode, which identify the file.
    public var device: UInt64
    public var inode: UInt64
    /// For a device node, the device it stands for (`st_rdev`).
    public var representedDevice: UInt64

    /// The major number of ``representedDevice`` (glibc's `major()`).
    public var representedMajor: UInt32 {
        UInt32(truncatingIfNeeded: ((representedDevice >> 8) & 0xfff) | ((representedDevice >> 32) & ~UInt64(0xfff)))
    }

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: type = .regular
        case S_IFDIR: type = .directory
        case S_IFLNK: type = .symbolicLink
        case S_IFCHR: type = .characterDevice
        case S_IFBLK: type = .blockDevice
        case S_IFIFO: type = .fifo
        case S_IFSOCK: type = .socket
        default: type = .unknown
        }
        size = Int64(status.st_size)
        permissions = UInt32(status.st_mode & 0o7777)
        modificationSeconds = Int64(status.st_mtim.tv_sec)
        userID = UInt32(status.st_uid)
        groupID = UInt32(status.st_gid)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        representedDevice = UInt64(status.st_rdev)
    }
}

extension FileDescriptor {
    /// Writes all of `bytes`, dropping any error: for last-resort messages
    /// on standard error, where there is nowhere left to report a failure.
    public func writeAllIgnoringErrors(_ bytes: [UInt8]) {
        // Harmless: standard error is where failures are told; when it fails, no channel is left to tell it on.
        try? writeAll(bytes)
    }
}
