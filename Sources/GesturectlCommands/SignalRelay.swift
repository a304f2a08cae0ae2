import Foundation
import Glibc

/// The write end of the relay's pipe; -1 when not relaying.
nonisolated(unsafe) private var relayDescriptor: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGHUP into a call of a Swift closure on a
/// thread of its own, so that a recording or a play stops promptly and
/// cleans up (lifting every finger) instead of the process dying with a
/// finger down.
///
/// The signal handler itself only write(2)s the signal number as one byte
/// to a pipe (async-signal-safe); a relay thread blocked on the pipe
/// runs the closure, where any Swift code is allowed.
enum SignalRelay {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Routes the signals to `handler` until ``stop()``. Later signals call
    /// it again (a second Ctrl-C is still handled, not fatal).
    static func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        relayDescriptor = ends[1]
        let readEnd = ends[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                // End of file or the stop marker: the relay is over.
                if count <= 0 || byte == 0 { break }
                handler(Int32(byte))
            }
            close(readEnd)
        }
        for signalNumber in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(relayDescriptor, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signalNumber, &action, nil)
        }
    }

    /// Restores the default actions and ends the relay thread.
    static func stop() {
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
        let descriptor = relayDescriptor
        relayDescriptor = -1
        if descriptor >= 0 {
            var stopMarker: UInt8 = 0
            _ = write(descriptor, &stopMarker, 1)
            close(descriptor)
        }
    }

}
