import CSystemShim
import Glibc

/// The signal mask and dispositions of the process.
///
/// gesturectl handles SIGINT, SIGTERM and SIGHUP as events, read from a
/// signalfd by one thread (``SignalWatcher``). For that, the signals must be
/// blocked in every thread, so ``block(_:)`` is called first thing in
/// `main`, before any thread exists (Dispatch's and the concurrency pool's
/// threads inherit the mask of the thread that creates them).
public enum SignalMask {
    /// The signals gesturectl turns into events: SIGINT, SIGTERM, SIGHUP.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// SIGINT (Ctrl-C).
    public static let interrupt = SIGINT
    /// SIGTERM (a polite request to stop).
    public static let terminate = SIGTERM
    /// SIGHUP (the terminal closed; a daemon's "reload").
    public static let hangUp = SIGHUP

    /// Blocks `signals` in the calling thread (`pthread_sigmask`).
    public static func block(_ signals: [Int32]) throws(SystemError) {
        try Syscall.errnoValue(gesturectl_thread_signal_mask(1, signals, Int32(signals.count)), call: "pthread_sigmask")
    }

    /// Unblocks `signals` in the calling thread (`pthread_sigmask`).
    public static func unblock(_ signals: [Int32]) throws(SystemError) {
        try Syscall.errnoValue(gesturectl_thread_signal_mask(0, signals, Int32(signals.count)), call: "pthread_sigmask")
    }

    /// Ignores SIGPIPE, so that writing to a closed pipe or socket fails
    /// with EPIPE instead of killing the process with a finger down.
    /// Children get the default back (``ChildProcess``).
    public static func ignoreBrokenPipe() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Ends the process as `signalNumber`'s default action would (so the
    /// parent sees "killed by SIGINT", as shells expect after Ctrl-C):
    /// restores the default action, unblocks the signal in the calling
    /// thread and raises it. Exits with 128 + the number should it survive.
    public static func terminate(asIfBy signalNumber: Int32) -> Never {
        // Nothing half-written is left behind.
        TemporaryFiles.shared.removeAll()
        _ = signal(signalNumber, SIG_DFL)
        _ = gesturectl_thread_signal_mask(0, [signalNumber], 1)
        _ = raise(signalNumber)
        _exit(128 + signalNumber)
    }

    /// The signal's name without `SIG`, e.g. `INT`; the number otherwise.
    public static func name(of signalNumber: Int32) -> String {
        switch signalNumber {
        case SIGINT: "INT"
        case SIGTERM: "TERM"
        case SIGHUP: "HUP"
        case SIGPIPE: "PIPE"
        case SIGQUIT: "QUIT"
        default: String(signalNumber)
        }
    }
}

/// Reads blocked signals from a signalfd on a dedicated thread
/// (`gesturectl-sig`) and hands each to a handler there, where any Swift
/// code may run: nothing runs in a signal handler.
///
/// The signals must be blocked in every thread (``SignalMask/block(_:)``
/// first thing in `main`), or the kernel delivers them the default way.
public final class SignalWatcher: Sendable {
    /// How the signal thread is set up: named `gesturectl-sig`.
    public static let threadOptions = ThreadOptions(name: "gesturectl-sig")

    private let stopSignal = CancellationSignal()

    /// Opens the signalfd for `signals` and starts the thread, which calls
    /// `handler` with each signal's number as it arrives.
    /// - Throws: ``SystemError`` from `signalfd`, `eventfd` or the thread's start.
    public init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) throws(SystemError) {
        let descriptor = FileDescriptor(
            rawValue: try Syscall.minusOne("signalfd") { gesturectl_signalfd(signals, Int32(signals.count)) })
        let stop: FileDescriptor
        do throws(SystemError) {
            stop = try stopSignal.fileDescriptor
            // The thread keeps the signal, and so its descriptor, open until
            // it ends: a watcher dropped before its thread first polled
            // closed it, and the thread polled whatever file reused the
            // number next (a hang under load, in SignalWatcherTests).
            let stopSignal = stopSignal
            try DedicatedThread.start(Self.threadOptions) {
                defer {
                    descriptor.close()
                    withExtendedLifetime(stopSignal) {}
                }
                while true {
                    // Harmless: EINTR is an empty wake, not an error; poll of two open descriptors has no other failure
                    // (EFAULT, EINVAL and ENOMEM need a bad array or more entries than fit on the kernel's stack).
                    guard let events = try? Poll.wait([(descriptor, .readable), (stop, .readable)], timeoutMilliseconds: nil)
                    else { return }
                    if !events[1].isEmpty { return }
                    guard !events[0].isEmpty else { continue }
                    let number = gesturectl_signalfd_read(descriptor.rawValue)
                    if number > 0 { handler(number) }
                }
            }
        } catch {
            descriptor.close()
            throw error
        }
    }

    /// Ends the watching thread (signals stay blocked and pending).
    public func stop() { stopSignal.cancel() }

    deinit { stopSignal.cancel() }
}
