import Glibc

/// The descriptor the signal handler writes to; -1 when none.
nonisolated(unsafe) private var relayDescriptor: Int32 = -1
/// The last signal received (0 for none).
nonisolated(unsafe) private var relayedSignal: sig_atomic_t = 0

/// Turns SIGINT, SIGTERM and SIGHUP into a byte written to a descriptor, so
/// that a thread polling that descriptor (a recording or a play) stops
/// promptly and cleans up, instead of the process dying with a finger down.
///
/// The handler only stores the signal number and calls write(2), both
/// async-signal-safe.
enum SignalRelay {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Routes the signals to `descriptor` until ``stop()``.
    static func start(writingTo descriptor: Int32) {
        relayDescriptor = descriptor
        relayedSignal = 0
        for signalNumber in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                relayedSignal = sig_atomic_t(number)
                var byte: UInt8 = 1
                _ = write(relayDescriptor, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Restores the default actions.
    static func stop() {
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
        relayDescriptor = -1
    }

    /// The signal that arrived since ``start(writingTo:)``, if any.
    static var receivedSignal: Int32? { relayedSignal == 0 ? nil : Int32(relayedSignal) }
}
