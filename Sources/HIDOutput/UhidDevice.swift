import GesturePlayback
import GestureModel
import InputSystem
import OperatingSystem
import Synchronization

/// A HID device made through /dev/uhid: the kernel's own HID drivers
/// (hid-multitouch for a touchscreen, hid-generic for a mouse) bind it and
/// make its input nodes, exactly as they do for a real USB device.
///
/// Creating one opens /dev/uhid, starts a reader thread (`gesturectl-uhid`)
/// that answers the driver's requests at once — GET_REPORT from the
/// description's ``HIDDeviceDescription/featureReports`` (EIO for a report
/// it does not have), SET_REPORT remembered and acknowledged (hid-multitouch
/// sets the Device Mode while binding) — writes UHID_CREATE2, and waits
/// until the driver has bound (UHID_START) and udev has announced the
/// evdev node the driver made, found by the `uniq` string this device was
/// created with.
///
/// ``send(report:)`` writes one UHID_INPUT2. ``close()`` writes
/// UHID_DESTROY, stops the reader and closes the descriptor; it is safe to
/// call more than once, from any thread, and `deinit` calls it.
public final class UhidDevice: HIDReportOutput, Sendable {
    /// The default path of the uhid node.
    public static let defaultPath = "/dev/uhid"
    /// The name of the reader thread.
    public static let readerThread = ThreadOptions(name: "gesturectl-uhid")
    /// How long creation waits for a driver to bind by default: 5 s.
    public static let defaultDriverTimeout = Microseconds(5_000_000)
    /// The start of the `phys` string of every device (`gesturectl/uhid/`
    /// and the hexadecimal digits of its ``uniq``): libinput groups the
    /// devices that share a phys (`LIBINPUT_DEVICE_GROUP`), and two plays'
    /// devices are not one piece of hardware.
    public static let physPrefix = "gesturectl/uhid/"

    /// What the device was created with.
    public let description: HIDDeviceDescription
    /// The uhid node it was created through.
    public let path: String
    /// The unique string it was created with (`uniq`), which its input
    /// nodes carry: `gesturectl-` and 16 random hexadecimal digits.
    public let uniq: String
    /// The evdev node the driver made (the first one udev announced), `nil`
    /// when it could not be found.
    public let devnode: String?
    /// Whether udev announced ``devnode`` within the timeout (when false,
    /// libinput may ignore a node udev has not tagged).
    public let isInitialisedByUdev: Bool
    private let channel: UhidChannel

    /// Creates the device through `path` and waits for its driver (up to
    /// `driverTimeout`) and for udev (up to `udevTimeout` more; without
    /// udev the node is looked up in sysfs).
    ///
    /// - Throws: ``OperatingSystem/SystemError`` about `.uhid` when `path`
    ///   cannot be opened (`.notFound`: the uhid module is not loaded;
    ///   `.permissionDenied`) or written; ``UhidError`` when the
    ///   description cannot be encoded, no driver bound the device in time
    ///   or the reader failed.
    public convenience init(
        description: HIDDeviceDescription, path: String = UhidDevice.defaultPath,
        driverTimeout: Microseconds = UhidDevice.defaultDriverTimeout,
        udevTimeout: Microseconds = UdevSettle.defaultTimeout, clock: some PlaybackClock = SystemClock()
    ) throws {
        // Opened before the device exists, or udev's "add" may pass unseen.
        // Harmless: without a monitor the node is looked up in sysfs and isInitialisedByUdev is false,
        // which play and press warn about ("udev did not announce … in time").
        let monitor: UdevMonitor? = try? Udev().monitor()
        let descriptor: FileDescriptor
        do throws(SystemError) {
            descriptor = try FileDescriptor.open(path, .readWrite)
        } catch {
            throw error.about(.uhid)
        }
        try self.init(
            description: description, descriptor: descriptor, path: path, monitor: monitor,
            findNode: UhidDevice.sysfsNode(uniq:), driverTimeout: driverTimeout, udevTimeout: udevTimeout, clock: clock)
    }

    /// Creates the device on an open `descriptor` (which it then owns: it
    /// is closed on failure and by ``close()``): /dev/uhid, or one end of a
    /// ``OperatingSystem/UnixSocket/packetPair()`` in tests. `monitor`
    /// (opened before) announces the node; `findNode` looks it up when udev
    /// did not. `uniq` is for tests (default: a new random one).
    init(
        description: HIDDeviceDescription, descriptor: FileDescriptor, path: String,
        monitor: (any UdevEventSource)?, findNode: (String) -> String?, driverTimeout: Microseconds,
        udevTimeout: Microseconds, clock: some PlaybackClock, uniq: String? = nil
    ) throws {
        let uniq = uniq ?? "gesturectl-" + String(UInt64.random(in: 1...UInt64.max), radix: 16).leftPadded(to: 16)
        let phys = UhidDevice.physPrefix + uniq.dropFirst("gesturectl-".count)
        let create: [UInt8]
        do throws(UhidCodec.EncodingError) {
            create = try UhidCodec.create2(
                name: description.name, phys: phys, uniq: uniq, bus: description.bus,
                vendor: description.vendor, product: description.product, version: description.version,
                country: description.country, reportDescriptor: description.reportDescriptor)
        } catch {
            descriptor.close()
            throw UhidError.invalidDescription(error)
        }
        let channel: UhidChannel
        do {
            channel = try UhidChannel(descriptor: descriptor, path: path, featureReports: description.featureReports)
        } catch {
            descriptor.close()
            throw error
        }
        // From here on, `channel.shutDown()` undoes everything.
        do {
            try channel.startReader()
            try channel.write(create, detail: "UHID_CREATE2 \"\(description.name)\"")
            try channel.waitForStart(until: clock.now() + driverTimeout, clock: clock, device: description.name, waited: driverTimeout)
        } catch {
            channel.shutDown()
            throw error
        }
        var node: String?
        var announced = false
        if let monitor {
            let found = UdevSettle.waitForDevice(monitor: monitor, timeout: udevTimeout, clock: clock) { $0.uniq == uniq }
            node = found?.node
            announced = found != nil
        }
        self.description = description
        self.path = path
        self.uniq = uniq
        self.devnode = node ?? findNode(uniq)
        self.isInitialisedByUdev = announced
        self.channel = channel
    }

    deinit { close() }

    /// What the kernel has told the device so far.
    public var status: UhidStatus { channel.status }

    /// Writes one input report as a UHID_INPUT2.
    /// - Throws: ``UhidCodec/EncodingError`` for a report over 4096 bytes,
    ///   ``UhidError/closed`` after ``close()``, ``OperatingSystem/SystemError`` from `write`.
    public func send(report: [UInt8]) throws {
        try channel.writeUnlessClosed(try UhidCodec.input2(report))
    }

    /// Destroys the device (UHID_DESTROY: the driver unbinds and its input
    /// nodes go), stops the reader and closes the descriptor. Later calls
    /// wait until the first is done.
    public func close() { channel.shutDown() }

    /// The evdev node whose input device carries `uniq`, from sysfs
    /// (libudev's enumeration works without udevd).
    static func sysfsNode(uniq: String) -> String? {
        // Harmless: asked only when udev did not announce the node, which play and press warn about; the node then shows as "?".
        (try? Udev().inputDevices())?.first { $0.uniq == uniq }?.node
    }
}

/// Why a uhid device could not be made or used.
public enum UhidError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The description does not fit in a UHID_CREATE2.
    case invalidDescription(UhidCodec.EncodingError)
    /// No HID driver bound the device (no UHID_START) within `waited`.
    case driverNotBound(device: String, waited: Microseconds)
    /// Reading /dev/uhid failed before the driver bound.
    case readFailed(SystemError)
    /// The device was closed.
    case closed

    /// A one-line message for people.
    public var description: String {
        switch self {
        case .invalidDescription(let error):
            "cannot create the HID device: \(error)"
        case let .driverNotBound(device, waited):
            "no HID driver bound \"\(DisplayText.escaped(device))\" within \(waited.rawValue / 1_000) ms"
                + " (is hid-multitouch available? 'modprobe hid-multitouch'; the kernel log may say why)"
        case .readFailed(let error):
            "reading /dev/uhid failed: \(error)"
        case .closed:
            "the uhid device is closed"
        }
    }
}

/// What the kernel has told a ``UhidDevice`` so far.
public struct UhidStatus: Hashable, Sendable {
    /// A driver bound the device (UHID_START).
    public var isStarted = false
    /// The `UHID_DEV_NUMBERED_*` flags of UHID_START.
    public var startFlags: UInt64 = 0
    /// The driver unbound it (UHID_STOP).
    public var isStopped = false
    /// Whether a reader has one of its input nodes open (UHID_OPEN, until UHID_CLOSE).
    public var isOpen = false
    /// The reports the driver set (SET_REPORT), by report number, as last set.
    public var setReports: [UInt8: [UInt8]] = [:]
    /// GET_REPORT requests answered with a report.
    public var reportsAnswered = 0
    /// GET_REPORT requests answered with EIO (a report the device does not have).
    public var reportsRefused = 0
    /// Output reports received (and ignored).
    public var outputReports = 0
    /// Why the reader stopped early, if it did.
    public var readerError: SystemError?

    /// Creates an empty status.
    public init() {}
}

/// The descriptor of a ``UhidDevice`` and its reader thread, shared by the
/// device and the thread (which must not keep the device itself alive, or
/// its `deinit` would never run).
final class UhidChannel: Sendable {
    private struct State: Sendable {
        var status = UhidStatus()
        var featureReports: [UInt8: [UInt8]]
        var closing = false
        var open = true
        var readerRunning = false
    }

    /// EIO: the error a GET_REPORT of an unknown report is answered with
    /// (the kernel turns any non-zero error into -EIO).
    static let inputOutputError: UInt16 = 5

    let descriptor: FileDescriptor
    let path: String
    private let state: Mutex<State>
    /// Stops the reader.
    private let stop = CancellationSignal()
    /// Signalled by the reader whenever the status changes (START, an error).
    private let changed: EventCounter
    /// Signalled by the reader when it ends.
    private let finished = Semaphore(value: 0)
    /// Signalled by the first ``shutDown()`` when it is done.
    private let shutDownDone = Semaphore(value: 0)

    init(descriptor: FileDescriptor, path: String, featureReports: [UInt8: [UInt8]]) throws(SystemError) {
        self.descriptor = descriptor
        self.path = path
        state = Mutex(State(featureReports: featureReports))
        changed = try EventCounter()
        try descriptor.setNonBlocking()
    }

    var status: UhidStatus { state.withLock { $0.status } }

    /// Starts the reader thread.
    func startReader() throws(SystemError) {
        state.withLock { $0.readerRunning = true }
        do throws(SystemError) {
            try DedicatedThread.start(UhidDevice.readerThread) { [self] in
                readLoop()
                finished.signal()
            }
        } catch {
            state.withLock { $0.readerRunning = false }
            throw error
        }
    }

    /// Waits until UHID_START, the reader failing, or `deadline`.
    func waitForStart(until deadline: Microseconds, clock: some PlaybackClock, device: String, waited: Microseconds) throws {
        while true {
            let status = status
            if status.isStarted { return }
            if let error = status.readerError { throw UhidError.readFailed(error) }
            let remaining = deadline.rawValue - clock.now().rawValue
            if remaining <= 0 { throw UhidError.driverNotBound(device: device, waited: waited) }
            _ = try Poll.waitReadable(changed.fileDescriptor, timeoutMilliseconds: Poll.milliseconds(roundingUp: remaining))
            changed.drain()
        }
    }

    /// One whole event in one `write`.
    func write(_ bytes: [UInt8], detail: String) throws(SystemError) {
        let outcome: Result<Void, SystemError> = bytes.withUnsafeBytes { buffer in
            do throws(SystemError) {
                return .success(try descriptor.writeAll(buffer, path: path, deviceIsOpen: true, detail: detail))
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// A write from outside (an input report), refused once closing began;
    /// under the lock, so the descriptor cannot be closed under it.
    func writeUnlessClosed(_ bytes: [UInt8]) throws {
        let outcome: Result<Void, any Error> = state.withLock { current in
            guard current.open && !current.closing else { return .failure(UhidError.closed) }
            do throws(SystemError) {
                try write(bytes, detail: "UHID_INPUT2")
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// UHID_DESTROY, the reader stopped, the descriptor closed. The first
    /// call does it; later ones wait for it.
    func shutDown() {
        let first: Bool = state.withLock { current in
            if current.closing { return false }
            current.closing = true
            return true
        }
        guard first else {
            shutDownDone.wait()
            shutDownDone.signal()
            return
        }
        // The reader keeps answering while the driver unbinds (a driver
        // may ask for reports on its way out).
        // Harmless: closing the descriptor below destroys the device too (the kernel's release of /dev/uhid).
        try? write(UhidCodec.destroy(), detail: "UHID_DESTROY")
        stop.cancel()
        if state.withLock({ $0.readerRunning }) { finished.wait() }
        state.withLock { current in
            current.open = false
            descriptor.close()
        }
        shutDownDone.signal()
    }

    /// The reader: one event per `read`, answered at once, until stopped.
    private func readLoop() {
        defer { state.withLock { $0.readerRunning = false } }
        do throws(SystemError) {
            let stopDescriptor = try stop.fileDescriptor
            while !stop.isCancelled {
                let ready = try Poll.wait([(descriptor, .readable), (stopDescriptor, .readable)], timeoutMilliseconds: nil)
                if !ready[1].isEmpty { return }
                if ready[0].isEmpty { continue }
                guard let bytes = try descriptor.read(upTo: UhidCodec.eventSize, path: path) else { continue }
                // End of file: only a test double's other end closing does that.
                if bytes.isEmpty { return }
                handle(UhidCodec.decode(bytes))
            }
        } catch {
            state.withLock { $0.status.readerError = error }
            changed.signal()
        }
    }

    private func handle(_ event: UhidCodec.KernelEvent) {
        switch event {
        case .start(let flags):
            state.withLock { current in
                current.status.isStarted = true
                current.status.startFlags = flags
            }
            changed.signal()
        case .stop:
            state.withLock { $0.status.isStopped = true }
        case .open:
            state.withLock { $0.status.isOpen = true }
        case .close:
            state.withLock { $0.status.isOpen = false }
        case .output:
            state.withLock { $0.status.outputReports += 1 }
        case let .getReport(id, number, type):
            let report: [UInt8]? = state.withLock { current in
                let report = type == UhidCodec.ReportType.feature.rawValue ? current.featureReports[number] : nil
                if report != nil { current.status.reportsAnswered += 1 } else { current.status.reportsRefused += 1 }
                return report
            }
            // A report that does not fit in a reply is refused rather than cut.
            // Harmless: the driver gets EIO for it, as for a report the device does not have.
            let reply = report.flatMap { try? UhidCodec.getReportReply(id: id, error: 0, data: $0) }
                ?? UhidCodec.getReportRefusal(id: id, error: Self.inputOutputError)
            // Harmless: a failed reply leaves the driver to its own timeout (the kernel log says so), and the
            // same broken descriptor fails the next input report, which the play reports.
            try? write(reply, detail: "UHID_GET_REPORT_REPLY")
        case let .setReport(id, number, type, data):
            state.withLock { current in
                current.status.setReports[number] = data
                // A later GET_REPORT of a feature report gets what was set, as from a real device.
                if type == UhidCodec.ReportType.feature.rawValue { current.featureReports[number] = data }
            }
            // Harmless: as for UHID_GET_REPORT_REPLY above.
            try? write(UhidCodec.setReportReply(id: id, error: 0), detail: "UHID_SET_REPORT_REPLY")
        case .other:
            break
        }
    }
}

extension String {
    /// The string with `0`s before it up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
