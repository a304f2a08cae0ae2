import Glibc
import OperatingSystem

/// How long a test waits for something before it fails instead of hanging:
/// generous, for a loaded two-core host or an emulated VM. It bounds a
/// wait; no test asserts how long anything took.
public let defaultWaitSeconds: Double = 20

/// A point on CLOCK_MONOTONIC some seconds from now.
public struct WaitDeadline: Sendable {
    private let end: Int64

    /// The deadline `seconds` from now.
    public init(_ seconds: Double) { end = MonotonicClock.nowMicroseconds() + Int64(seconds * 1_000_000) }

    /// Whether it has passed.
    public var hasPassed: Bool { MonotonicClock.nowMicroseconds() >= end }

    /// What is left as a poll timeout (at least 1 ms, at most a minute);
    /// `nil` once it has passed.
    public var remainingMilliseconds: Int32? {
        let left = end - MonotonicClock.nowMicroseconds()
        guard left > 0 else { return nil }
        return max(1, min(Poll.milliseconds(roundingUp: left), 60_000))
    }
}

/// What a bounded wait throws when its deadline passes first.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public var what: String
    /// Creates the error.
    public init(what: String) { self.what = what }
    public var description: String { "timed out waiting for \(what)" }
}

/// Something a thread signals and a test waits for (an eventfd): a
/// callback ran, a thread reached a point, a test double changed.
/// Signals are counted, never lost: one sent before the wait starts ends it.
public final class TestEvent: Sendable {
    private let counter: EventCounter

    /// A new event, not signalled.
    public init() throws(SystemError) { counter = try EventCounter() }

    /// Signals it (from any thread; async-signal-safe).
    public func signal() { counter.signal() }

    /// Waits until it is signalled, for at most `seconds`; true when it
    /// was. The signals so far are consumed.
    public func wait(within seconds: Double = defaultWaitSeconds) throws(SystemError) -> Bool {
        let deadline = WaitDeadline(seconds)
        while true {
            guard let remaining = deadline.remainingMilliseconds else { return false }
            // An interrupted poll reports nothing: wait again for what is left.
            if try Poll.waitReadable(counter.fileDescriptor, timeoutMilliseconds: remaining) {
                counter.drain()
                return true
            }
        }
    }

    /// Waits until `condition` holds, checking it again each time the event
    /// is signalled (the thing awaited signals it on each change), for at
    /// most `seconds`; whether it holds in the end.
    public func wait(
        within seconds: Double = defaultWaitSeconds, until condition: () throws -> Bool
    ) throws -> Bool {
        let deadline = WaitDeadline(seconds)
        while true {
            if try condition() { return true }
            guard let remaining = deadline.remainingMilliseconds else { return try condition() }
            // Drained before the next check, so a change during the check wakes the next wait.
            if try Poll.waitReadable(counter.fileDescriptor, timeoutMilliseconds: remaining) { counter.drain() }
        }
    }
}

/// Waits until `condition` holds, for at most `seconds`, checking it every
/// 2 ms; whether it holds in the end. Only for what nothing can signal
/// (another process's state in /proc, a daemon's answers, a log written
/// by code under test): a ``TestEvent`` wakes at once and costs nothing.
public func waitUntil(within seconds: Double = defaultWaitSeconds, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = WaitDeadline(seconds)
    while true {
        if try condition() { return true }
        if deadline.hasPassed { return try condition() }
        _ = try? Poll.wait([], timeoutMilliseconds: 2)
    }
}

/// ``waitUntil(within:_:)`` that throws ``WaitTimedOut`` naming `what`
/// when the deadline passes first.
public func waitUntil(within seconds: Double = defaultWaitSeconds, _ what: String, _ condition: () throws -> Bool) throws {
    guard try waitUntil(within: seconds, condition) else { throw WaitTimedOut(what: what) }
}
