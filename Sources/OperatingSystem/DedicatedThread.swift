import CSystemShim
import Glibc
import Synchronization

/// How a dedicated thread is set up before its work runs.
public struct ThreadOptions: Hashable, Sendable {
    /// The name `ps -L`, `top -H` and /proc/PID/task/TID/comm show, e.g.
    /// `gesturectl-play`; the kernel keeps at most 15 bytes.
    public var name: String
    /// The thread's timer slack in nanoseconds (`PR_SET_TIMERSLACK`): how
    /// much later than asked the kernel may wake it. The default 50 µs
    /// makes every deadline of a play late; 1 ns asks for exact wakes.
    /// `nil` keeps the inherited slack.
    public var timerSlackNanoseconds: UInt?
    /// A SCHED_FIFO priority (1…99) for the thread, `nil` for the normal
    /// scheduler. Needs CAP_SYS_NICE or an rtprio limit.
    public var realtimePriority: Int32?
    /// A nice value for the thread alone (`setpriority` on its thread id):
    /// a positive one makes it background work, which a normal thread of
    /// the process preempts as soon as it wakes. `nil` keeps the inherited one.
    public var niceness: Int32?

    /// Creates options.
    public init(name: String, timerSlackNanoseconds: UInt? = nil, realtimePriority: Int32? = nil, niceness: Int32? = nil) {
        self.name = name
        self.timerSlackNanoseconds = timerSlackNanoseconds
        self.realtimePriority = realtimePriority
        self.niceness = niceness
    }

    /// These options at SCHED_FIFO `priority` (1…99), or as they are for
    /// `nil`: a play's or a recording's thread with `--realtime`.
    public func atRealtimePriority(_ priority: Int32?) -> ThreadOptions {
        var options = self
        if let priority { options.realtimePriority = priority }
        return options
    }
}

/// Threads of our own for blocking work (a play's timed writes, a
/// recording's reads, signal handling): such work must never occupy one of
/// the few threads of Swift's cooperative pool.
///
/// This is the package's one way to start a thread. The new thread names
/// itself through the kernel and sets its timer slack and priority before
/// the work runs; ``start(_:_:)`` waits for that and throws when any of it
/// failed, so a thread that cannot keep time is an error, never a silent
/// degradation. Threads are detached: the work reports its end itself.
public enum DedicatedThread {
    /// The longest name the kernel keeps (TASK_COMM_LEN - 1).
    public static let maximumNameLength = 15

    fileprivate final class Launch: @unchecked Sendable {
        // @unchecked: `body` is set once before the thread starts and read
        // only by that thread; `setupError` is written by the new thread
        // before `ready` is signalled and read by the starter after it.
        let options: ThreadOptions
        let body: () -> Void
        var setupError: SystemError?
        let ready = Semaphore(value: 0)
        init(options: ThreadOptions, body: @escaping () -> Void) {
            self.options = options
            self.body = body
        }
    }

    /// Starts `body` on a new thread set up as `options` say, and returns
    /// once the thread is set up (not when the work ends).
    /// - Throws: ``SystemError`` from `pthread_create` (EAGAIN: out of
    ///   threads), `pthread_setname_np` (a name over 15 bytes),
    ///   `prctl(PR_SET_TIMERSLACK)` or `pthread_setschedparam` (EPERM); then
    ///   `body` does not run.
    public static func start(_ options: ThreadOptions, _ body: sending @escaping () -> Void) throws(SystemError) {
        let launch = Launch(options: options, body: body)
        // A thread inherits its creator's nice value, and an unprivileged
        // thread cannot lower it again: one started from background work
        // (a nice 10 worker starting a recording or a player) is created by
        // the spawner thread instead, at the process's own nice value.
        if options.niceness != nil { Spawner.shared.prepare() }
        if Spawner.shared.isPrepared && currentNiceness != processNiceness {
            try Spawner.shared.create(launch)
        } else {
            try create(launch)
        }
    }

    /// The calling thread's nice value.
    static var currentNiceness: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gesturectl_thread_id())) }
    /// The main thread's nice value (the process's, as started).
    static var processNiceness: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid())) }

    /// Creates `launch`'s thread from the calling thread; returns once it is set up.
    fileprivate static func create(_ launch: Launch) throws(SystemError) {
        let options = launch.options
        if options.name.utf8.count > maximumNameLength {
            throw SystemError(
                call: "pthread_setname_np", errorNumber: ERANGE,
                detail: "\"\(options.name)\" is longer than \(maximumNameLength) bytes")
        }
        let retained = Unmanaged.passRetained(launch)
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { pointer in
                guard let pointer else { return nil }
                let launch = Unmanaged<Launch>.fromOpaque(pointer).takeRetainedValue()
                launch.setupError = DedicatedThread.setUp(launch.options)
                let failed = launch.setupError != nil
                let body = launch.body
                launch.ready.signal()
                if !failed { body() }
                return nil
            }, retained.toOpaque())
        if result != 0 {
            retained.release()
            throw SystemError(call: "pthread_create", errorNumber: result, detail: "thread \(options.name)")
        }
        _ = pthread_detach(thread)
        launch.ready.wait()
        if let error = launch.setupError { throw error }
    }

    /// Runs on the new thread: name, slack, nice value, priority.
    private static func setUp(_ options: ThreadOptions) -> SystemError? {
        do throws(SystemError) {
            try Syscall.errnoValue(
                gesturectl_set_thread_name(options.name), call: "pthread_setname_np", detail: options.name)
            if let slack = options.timerSlackNanoseconds {
                try Syscall.minusOne("prctl(PR_SET_TIMERSLACK)", detail: options.name) {
                    gesturectl_set_timer_slack(slack)
                }
            }
            if let niceness = options.niceness {
                // Only lowering a thread's weight: needs no privilege.
                try Syscall.minusOne("setpriority", detail: options.name) {
                    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gesturectl_thread_id()), niceness)
                }
            }
            if let priority = options.realtimePriority {
                try Syscall.errnoValue(
                    gesturectl_set_realtime_priority(priority), call: "pthread_setschedparam",
                    detail: "SCHED_FIFO priority \(priority) for \(options.name)")
            }
            return nil
        } catch {
            return error
        }
    }

    /// The SCHED_FIFO priority `play --realtime` and `record --realtime`
    /// ask for: 40, above every normal process and below the kernel's
    /// threaded interrupt handlers (50), which deliver the input a play may
    /// wait on and a recording reads.
    public static let defaultRealtimePriority: Int32 = 40

    /// Whether this process may run a thread at SCHED_FIFO `priority`:
    /// starts a thread set up so, named `name`, that does nothing. Ask
    /// before opening or creating a device, so that a refusal costs nothing.
    /// - Throws: ``SystemError`` (EPERM without CAP_SYS_NICE or a high
    ///   enough RLIMIT_RTPRIO).
    public static func checkRealtime(priority: Int32, name: String = "gesturectl-rt") throws(SystemError) {
        try start(ThreadOptions(name: name, realtimePriority: priority)) {}
    }

    /// What SCHED_FIFO `priority` needs, for the message of a refusal:
    /// "it needs CAP_SYS_NICE (…) or an RLIMIT_RTPRIO of at least 40 (…)".
    public static func realtimeRequirement(priority: Int32) -> String {
        "it needs CAP_SYS_NICE (root, or `setcap cap_sys_nice+ep` on the binary) or an RLIMIT_RTPRIO of at least "
            + "\(priority) (`ulimit -r`; rtprio in /etc/security/limits.conf)"
    }

    /// The calling thread's name as the kernel has it (`pthread_getname_np`).
    public static var currentName: String {
        var buffer = [CChar](repeating: 0, count: 32)
        guard gesturectl_get_thread_name(&buffer, buffer.count) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The calling thread's timer slack in nanoseconds (`PR_GET_TIMERSLACK`).
    public static var currentTimerSlack: Int { Int(gesturectl_get_timer_slack()) }

    /// The kernel's id of the calling thread (`gettid`).
    public static var currentThreadID: Int32 { gesturectl_thread_id() }
}

/// The thread that creates threads for callers whose nice value was raised
/// (``DedicatedThread/start(_:_:)``): made, at the process's nice value,
/// before the first thread of lowered priority starts.
private final class Spawner: Sendable {
    static let shared = Spawner()

    private final class Request: @unchecked Sendable {
        // @unchecked: `failure` is written by the spawner before `done` is
        // signalled, and read by the caller after it.
        let launch: DedicatedThread.Launch
        let done = Semaphore(value: 0)
        var failure: SystemError?
        init(launch: DedicatedThread.Launch) { self.launch = launch }
    }

    private let requests = Mutex<[Request]>([])
    private let wake = Semaphore(value: 0)
    /// Whether it runs, and whether its start was tried (once only).
    private let state = Mutex<(prepared: Bool, tried: Bool)>((false, false))

    var isPrepared: Bool { state.withLock { $0.prepared } }

    /// Starts the spawner thread (once; from a thread at the process's nice
    /// value). Should it fail, threads are created by their callers as before.
    func prepare() {
        let start = state.withLock { current -> Bool in
            if current.tried { return false }
            current.tried = true
            return true
        }
        guard start else { return }
        do {
            try DedicatedThread.create(
                DedicatedThread.Launch(options: ThreadOptions(name: "gesturectl-new")) { [self] in run() })
            state.withLock { $0.prepared = true }
        } catch {
            // Harmless: without the spawner a thread started from background work keeps its creator's nice value.
        }
    }

    /// Creates `launch`'s thread on the spawner; returns once it is set up.
    func create(_ launch: DedicatedThread.Launch) throws(SystemError) {
        let request = Request(launch: launch)
        requests.withLock { $0.append(request) }
        wake.signal()
        request.done.wait()
        if let error = request.failure { throw error }
    }

    private func run() {
        while true {
            wake.wait()
            let pending = requests.withLock { current in
                defer { current = [] }
                return current
            }
            for request in pending {
                do {
                    try DedicatedThread.create(request.launch)
                } catch {
                    request.failure = error
                }
                request.done.signal()
            }
        }
    }
}
