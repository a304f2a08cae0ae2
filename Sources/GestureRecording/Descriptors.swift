import Glibc
import InputSystem

/// The system calls the session makes, each turning "-1 and errno" into a
/// thrown ``SystemError`` in one place.
enum Descriptors {
    /// Result of reading the Enter descriptor.
    enum LineInput {
        /// A line ended (a newline or carriage return was read).
        case line
        /// Bytes without a line end, or nothing ready (EAGAIN, EINTR).
        case nothing
        /// End of input or a read error: stop watching the descriptor.
        case closed
    }

    /// `poll(2)` on `descriptors` for at most `timeoutMilliseconds` (-1:
    /// no limit). EINTR is not an error: it returns with no revents set.
    static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) throws(SystemError) {
        let result = descriptors.withUnsafeMutableBufferPointer {
            Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
        }
        guard result == -1 else { return }
        let errorNumber = errno
        if errorNumber == EINTR {
            for index in descriptors.indices { descriptors[index].revents = 0 }
            return
        }
        throw SystemError(call: "poll", errorNumber: errorNumber)
    }

    /// Reads what is waiting on a line-oriented descriptor (a terminal's
    /// stdin in canonical mode delivers a whole line at once).
    static func readLineInput(_ descriptor: Int32) -> LineInput {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            return buffer.prefix(count).contains(where: { $0 == 10 || $0 == 13 }) ? .line : .nothing
        }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EINTR ? .nothing : .closed
    }

    /// A pipe (`pipe(2)`), both ends non-blocking and close-on-exec.
    static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        // pipe2 is not visible through Glibc's module; set the flags after.
        guard pipe(&ends) == 0 else { throw SystemError(call: "pipe", errorNumber: errno) }
        for end in ends {
            guard fcntl(end, F_SETFL, O_NONBLOCK) == 0, fcntl(end, F_SETFD, FD_CLOEXEC) == 0 else {
                let errorNumber = errno
                close(ends[0])
                close(ends[1])
                throw SystemError(call: "fcntl", errorNumber: errorNumber)
            }
        }
        return (ends[0], ends[1])
    }

    /// Whether `descriptor` is readable now (`poll` with timeout 0).
    static func isReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }
}
