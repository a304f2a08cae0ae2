import GestureModel
import Glibc

/// The Linux calls Swift's Glibc module does not import: `timerfd_create`,
/// `timerfd_settime` and `eventfd` (their headers are not in the module)
/// and `prctl` (variadic, which Swift cannot call). They are looked up
/// once with `dlsym` and called through typed pointers, so that no C shim
/// target is needed.
///
/// `prctl` is called through a non-variadic pointer with five integer
/// arguments: on x86-64 and AArch64 Linux, integer arguments of a variadic
/// call are passed exactly as those of a fixed one.
struct LinuxCalls: @unchecked Sendable {
    // @unchecked: C function pointers are immutable and callable from any thread.
    typealias TimerCreate = @convention(c) (Int32, Int32) -> Int32
    typealias TimerSetTime = @convention(c) (
        Int32, Int32, UnsafePointer<itimerspec>?, UnsafeMutablePointer<itimerspec>?
    ) -> Int32
    typealias EventCreate = @convention(c) (UInt32, Int32) -> Int32
    typealias ProcessControl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32

    let timerCreate: TimerCreate?
    let timerSetTime: TimerSetTime?
    let eventCreate: EventCreate?
    let processControl: ProcessControl?

    /// The functions of the running C library; a missing one is `nil`.
    static let shared: LinuxCalls = {
        let library = dlopen(nil, RTLD_NOW)
        func find<Function>(_ name: String, as type: Function.Type) -> Function? {
            guard let library, let symbol = dlsym(library, name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        }
        return LinuxCalls(
            timerCreate: find("timerfd_create", as: TimerCreate.self),
            timerSetTime: find("timerfd_settime", as: TimerSetTime.self),
            eventCreate: find("eventfd", as: EventCreate.self),
            processControl: find("prctl", as: ProcessControl.self))
    }()

    /// `TFD_TIMER_ABSTIME` from <sys/timerfd.h>.
    static let timerAbsoluteTime: Int32 = 1
    /// `PR_SET_TIMERSLACK` from <linux/prctl.h>.
    static let setTimerSlack: Int32 = 29

    /// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`; `nil` on failure.
    func makeEventDescriptor() -> Int32? {
        guard let eventCreate else { return nil }
        // EFD_CLOEXEC and EFD_NONBLOCK equal O_CLOEXEC and O_NONBLOCK.
        let descriptor = eventCreate(0, O_CLOEXEC | O_NONBLOCK)
        return descriptor >= 0 ? descriptor : nil
    }

    /// `timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)`; `nil` on failure.
    func makeMonotonicTimer() -> Int32? {
        guard let timerCreate else { return nil }
        let descriptor = timerCreate(CLOCK_MONOTONIC, O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Arms `timer` to expire once at `deadline` on CLOCK_MONOTONIC
    /// (`timerfd_settime` with `TFD_TIMER_ABSTIME`); false on failure.
    func arm(timer: Int32, at deadline: Microseconds) -> Bool {
        guard let timerSetTime else { return false }
        // A zero it_value disarms the timer: a deadline at or before 0 is
        // moved to 1 ns, long past, so the timer fires at once.
        let parts = max(deadline.rawValue, 0).quotientAndRemainder(dividingBy: 1_000_000)
        var setting = itimerspec()
        setting.it_value.tv_sec = Int(parts.quotient)
        setting.it_value.tv_nsec = max(Int(parts.remainder) * 1_000, parts.quotient == 0 ? 1 : 0)
        return timerSetTime(timer, Self.timerAbsoluteTime, &setting, nil) == 0
    }

    /// `prctl(PR_SET_TIMERSLACK, nanoseconds)` for the calling thread;
    /// false on failure.
    @discardableResult
    func setTimerSlack(nanoseconds: UInt) -> Bool {
        guard let processControl else { return false }
        return processControl(Self.setTimerSlack, nanoseconds, 0, 0, 0) == 0
    }

    /// Adds 1 to an eventfd's counter (`write` of 8 bytes); async-signal-safe.
    static func signal(eventDescriptor: Int32) {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { Glibc.write(eventDescriptor, $0.baseAddress, 8) }
    }

    /// Resets an eventfd's counter (`read` of 8 bytes; non-blocking).
    static func drain(eventDescriptor: Int32) {
        var value: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &value) { Glibc.read(eventDescriptor, $0.baseAddress, 8) }
    }

    /// `poll` on `descriptors` for reading, retried on EINTR; returns which
    /// ones are readable (all false on timeout or error). `timeout` in ms,
    /// -1 for none.
    static func waitReadable(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> [Bool] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let result = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { return Array(repeating: false, count: entries.count) }
            return entries.map { $0.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 }
        }
    }

    /// CLOCK_MONOTONIC now, in microseconds.
    static func monotonicNow() -> Microseconds {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Microseconds(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000)
    }
}
