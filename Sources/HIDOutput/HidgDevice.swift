import GestureModel
import OperatingSystem

/// A USB gadget's HID function seen from the board: `/dev/hidgN`, where
/// each write is one input report the host reads from the interrupt
/// endpoint.
///
/// The kernel's function (usb_f_hid) holds one report in flight: a write
/// waits until the host has read the previous one. A host reads only while
/// it has the device configured and awake, and then at its polling
/// interval (about every 10 ms at full speed, 1 ms at high speed), so a
/// report can wait that long and a play denser than the polling rate runs
/// late. ``send(report:)`` therefore waits for the node to be writable
/// (`poll` POLLOUT) at most ``timeout``; past it the host is not reading,
/// and that is said as such rather than blocking for ever.
///
/// A touch held longer than a host would wait for a report: hid-multitouch
/// (Linux, Android, ChromeOS) keeps a contact down until a report lifts it,
/// as long as the device does not carry the Windows certification blob,
/// which our descriptors leave out (with it, hid-multitouch releases a
/// contact after 100 ms without a report). Nothing is resent during a hold.
public final class HidgDevice: HIDReportOutput, Sendable {
    /// The node, e.g. `/dev/hidg0`.
    public let path: String
    /// The longest wait for the host to take a report.
    public let timeout: Microseconds
    private let descriptor: FileDescriptor

    /// The default timeout: 1 s, a hundred polls of a full-speed host.
    public static let defaultTimeout = Microseconds(1_000_000)

    /// Opens `path` for writing, non-blocking.
    /// - Throws: ``GadgetError``: `.notFound` without the node,
    ///   `.permissionDenied` without access (the node's group, udev-rules/).
    public init(path: String, timeout: Microseconds = defaultTimeout) throws(GadgetError) {
        self.path = path
        self.timeout = timeout
        do throws(SystemError) {
            descriptor = try FileDescriptor.open(path, [.writeOnly, .nonBlocking])
        } catch {
            switch error.kind {
            case .permissionDenied:
                throw GadgetError(
                    .permissionDenied,
                    "\(error); playing through a gadget needs write access to \(path): the group 'gesturectl' (see udev-rules/ and docs/GADGET.md) or root")
            case .notFound, .deviceVanished:
                throw GadgetError(.notFound, "\(error); is the gadget up? see 'gesturectl gadget status'")
            case .other:
                throw GadgetError(.other, error.description)
            }
        }
    }

    deinit { descriptor.close() }

    /// Writes one report, waiting at most ``timeout`` for the host to take
    /// the previous one.
    /// - Throws: ``GadgetError/Kind/hostNotReading`` after the timeout, or
    ///   when the host has not configured the device (ESHUTDOWN);
    ///   ``GadgetError/Kind/other`` for other write failures.
    public func send(report: [UInt8]) throws {
        let deadline = MonotonicClock.nowMicroseconds() + timeout.rawValue
        while true {
            let remaining = deadline - MonotonicClock.nowMicroseconds()
            guard remaining > 0 else { throw notReading() }
            let ready: Poll.Events
            do throws(SystemError) {
                ready = try Poll.wait(
                    [(descriptor, .writable)], timeoutMilliseconds: Poll.milliseconds(roundingUp: remaining))[0]
            } catch {
                throw GadgetError(.other, error.description)
            }
            if ready.isEmpty { continue }  // timed out or interrupted: the clock decides
            if !ready.isDisjoint(with: [.error, .hangUp, .invalid]) && !ready.contains(.writable) {
                throw GadgetError(.other, "\(path) failed (poll: \(ready.rawValue)); is the gadget still up?")
            }
            do throws(SystemError) {
                try descriptor.writeAll(report, path: path)
                return
            } catch where error.errorNumber == ErrorNumber.wouldBlock {
                continue  // another report took the slot first: wait again
            } catch where error.errorNumber == ErrorNumber.endpointShutDown {
                throw notReading(detail: "the host has not configured the gadget")
            } catch {
                throw GadgetError(.other, error.description)
            }
        }
    }

    private func notReading(detail: String? = nil) -> GadgetError {
        let waited = timeout.rawValue / 1_000
        return GadgetError(
            .hostNotReading,
            "\(path): the host is not reading (is the cable in a host's port, is the host awake?)"
                + (detail.map { "; \($0)" } ?? "; a report waited \(waited) ms"))
    }
}
