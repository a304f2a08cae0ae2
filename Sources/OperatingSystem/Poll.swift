import Glibc

/// Waiting on several descriptors at once (`poll(2)`): the one place the
/// package waits for input.
public enum Poll {
    /// What to wait for, and what happened.
    public struct Events: OptionSet, Hashable, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        /// POLLIN: data (or end of file) can be read.
        public static let readable = Events(rawValue: Int16(POLLIN))
        /// POLLOUT: writing would not block.
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// POLLERR (always reported).
        public static let error = Events(rawValue: Int16(POLLERR))
        /// POLLHUP: the other end hung up, or the device went away (always reported).
        public static let hangUp = Events(rawValue: Int16(POLLHUP))
        /// POLLNVAL: the descriptor is not open (always reported).
        public static let invalid = Events(rawValue: Int16(POLLNVAL))
    }

    /// Waits until one of `descriptors` has one of its events, or
    /// `timeoutMilliseconds` pass (`nil`: no limit; 0: just look). Returns
    /// what happened on each, in order (all empty after a timeout, or when a
    /// signal interrupted the wait: callers loop and look at their clock).
    public static func wait(
        _ descriptors: [(FileDescriptor, Events)], timeoutMilliseconds: Int32?
    ) throws(SystemError) -> [Events] {
        var entries = descriptors.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
        let result = entries.withUnsafeMutableBufferPointer {
            Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds ?? -1)
        }
        if result == -1 {
            let errorNumber = errno
            if errorNumber == EINTR { return Array(repeating: [], count: entries.count) }
            throw SystemError(call: "poll", errorNumber: errorNumber)
        }
        return entries.map { Events(rawValue: $0.revents) }
    }

    /// Waits until `descriptor` is readable (or hangs up) or the timeout
    /// passes; true when it is.
    public static func waitReadable(
        _ descriptor: FileDescriptor, timeoutMilliseconds: Int32?
    ) throws(SystemError) -> Bool {
        !(try wait([(descriptor, .readable)], timeoutMilliseconds: timeoutMilliseconds)[0]).isEmpty
    }

    /// Milliseconds for a poll timeout from microseconds, rounded up so that
    /// a wait never ends before its deadline; 0 for a time already passed.
    public static func milliseconds(roundingUp microseconds: Int64) -> Int32 {
        guard microseconds > 0 else { return 0 }
        return Int32(clamping: microseconds / 1_000 + (microseconds % 1_000 == 0 ? 0 : 1))
    }
}
