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
        let polled = try entries.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
            try poll(buffer.baseAddress, count: buffer.count, timeoutMilliseconds: timeoutMilliseconds)
        }
        guard polled else { return Array(repeating: [], count: entries.count) }
        return entries.map { Events(rawValue: $0.revents) }
    }

    /// `poll(2)` of `count` entries: true when it returned, false when a
    /// signal interrupted it (EINTR: the caller reports nothing happened).
    /// The one place the package calls `poll`.
    static func poll(_ entries: UnsafeMutablePointer<pollfd>?, count: Int, timeoutMilliseconds: Int32?) throws(SystemError) -> Bool {
        guard Glibc.poll(entries, nfds_t(count), timeoutMilliseconds ?? -1) == -1 else { return true }
        let errorNumber = errno
        if errorNumber == EINTR { return false }
        throw SystemError(call: "poll", errorNumber: errorNumber)
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

extension Poll {
    /// Waits on two descriptors (see ``wait(_:timeoutMilliseconds:)``)
    /// without allocating: the entries live on the stack. For the waits
    /// made once a frame — a player's timer and its cancellation, a
    /// thousand times a second — where the arrays of the general wait cost
    /// more than the `poll` itself under emulation.
    public static func wait(
        _ first: (FileDescriptor, Events), _ second: (FileDescriptor, Events), timeoutMilliseconds: Int32?
    ) throws(SystemError) -> (Events, Events) {
        var entries = (
            pollfd(fd: first.0.rawValue, events: first.1.rawValue, revents: 0),
            pollfd(fd: second.0.rawValue, events: second.1.rawValue, revents: 0)
        )
        let polled = try withUnsafeMutableBytes(of: &entries) { raw throws(SystemError) in
            try poll(raw.baseAddress?.assumingMemoryBound(to: pollfd.self), count: 2, timeoutMilliseconds: timeoutMilliseconds)
        }
        guard polled else { return ([], []) }
        return (Events(rawValue: entries.0.revents), Events(rawValue: entries.1.revents))
    }

    /// Descriptors waited on again and again (a recorder's device, its
    /// cancellation and Enter): the entries are made once and each
    /// ``wait(timeoutMilliseconds:)`` allocates nothing, where
    /// ``Poll/wait(_:timeoutMilliseconds:)`` makes three arrays a call.
    public struct Group: Sendable {
        private var entries: [pollfd]

        /// A group of `descriptors`, each with what to wait for.
        public init(_ descriptors: [(FileDescriptor, Events)]) {
            entries = descriptors.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
        }

        /// How many descriptors the group has.
        public var count: Int { entries.count }

        /// Waits until one of the descriptors has one of its events, or
        /// `timeoutMilliseconds` pass (`nil`: no limit; 0: just look); then
        /// ``events(at:)`` says what happened on each (all empty after a
        /// timeout, or when a signal interrupted the wait).
        public mutating func wait(timeoutMilliseconds: Int32?) throws(SystemError) {
            // Interrupted (false), the entries say nothing happened.
            _ = try entries.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
                for index in buffer.indices { buffer[index].revents = 0 }
                return try Poll.poll(buffer.baseAddress, count: buffer.count, timeoutMilliseconds: timeoutMilliseconds)
            }
        }

        /// What happened on the descriptor at `index` in the last wait.
        public func events(at index: Int) -> Events { Events(rawValue: entries[index].revents) }
    }
}
