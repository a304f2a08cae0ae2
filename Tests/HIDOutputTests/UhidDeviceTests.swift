import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Synchronization
import Testing

@testable import HIDOutput

/// The kernel's side of /dev/uhid, played by the other end of a packet
/// socket pair: one write is one event, as with the real node.
private final class FakeUhidKernel: Sendable {
    let end: FileDescriptor
    let deviceEnd: FileDescriptor

    init() throws {
        (end, deviceEnd) = try UnixSocket.packetPair()
    }

    deinit { end.close() }

    func send(_ bytes: [UInt8]) throws { try end.writeAll(bytes) }

    /// The next event the device wrote; `nil` at end of file (the device
    /// closed its end). Fails the test after 10 s: far beyond any correct run.
    func receive() throws -> [UInt8]? {
        guard try Poll.waitReadable(end, timeoutMilliseconds: 10_000) else {
            Issue.record("nothing written by the device within 10 s")
            return nil
        }
        guard let bytes = try end.read(upTo: UhidCodec.eventSize + 16), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// Events the kernel sends.
    static func start(flags: UInt64) -> [UInt8] {
        [2, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: flags >> ($0 * 8)) }
    }

    static func getReport(id: UInt8, number: UInt8, type: UInt8 = 0) -> [UInt8] {
        [9, 0, 0, 0, id, 0, 0, 0, number, type]
    }

    static func setReport(id: UInt8, number: UInt8, data: [UInt8]) -> [UInt8] {
        [13, 0, 0, 0, id, 0, 0, 0, number, 0, UInt8(data.count), 0] + data
    }
}

/// A udev monitor whose events are all there from the start.
private final class QueuedUdevSource: UdevEventSource {
    let fileDescriptor: FileDescriptor
    private var events: [UdevEvent]
    private let counter: EventCounter

    init(_ events: [UdevEvent]) throws {
        counter = try EventCounter()
        fileDescriptor = counter.fileDescriptor
        self.events = events
    }

    func receive() throws(SystemError) -> UdevEvent? { events.isEmpty ? nil : events.removeFirst() }
}

@Suite struct UhidDeviceTests {
    static let description = HIDDeviceDescription(
        name: "gesturectl virtual touchscreen", vendor: 0x4753, product: 0x0001, reportDescriptor: [0x05, 0x0D, 0xC0],
        featureReports: [2: [0x02, 0x0A]], inputReportLength: 4)

    private func makeDevice(
        _ kernel: FakeUhidKernel, monitor: (any UdevEventSource)? = nil, driverTimeout: Microseconds = Microseconds(10_000_000),
        findNode: (String) -> String? = { _ in nil }, uniq: String? = nil
    ) throws -> UhidDevice {
        try UhidDevice(
            description: Self.description, descriptor: kernel.deviceEnd, path: "fake-uhid", monitor: monitor,
            findNode: findNode, driverTimeout: driverTimeout, udevTimeout: Microseconds(10_000_000), clock: SystemClock(),
            uniq: uniq)
    }

    @Test func answersTheDriversRequestsAtOnceAndSendsReports() throws {
        let kernel = try FakeUhidKernel()
        // Queued before the device exists: the reader takes them in order.
        try kernel.send(FakeUhidKernel.start(flags: 0b101))
        try kernel.send(FakeUhidKernel.getReport(id: 1, number: 2))  // Contact Count Maximum: known
        try kernel.send(FakeUhidKernel.getReport(id: 2, number: 9))  // not in the description
        try kernel.send(FakeUhidKernel.getReport(id: 3, number: 2, type: 2))  // an input report: not answered
        try kernel.send(FakeUhidKernel.setReport(id: 4, number: 3, data: [0x03, 0x02]))  // Device Mode
        try kernel.send([4, 0, 0, 0])  // UHID_OPEN (handled before the last reply is written)
        try kernel.send(FakeUhidKernel.getReport(id: 5, number: 3))  // what was set
        let device = try makeDevice(kernel)
        #expect(device.uniq.hasPrefix("gesturectl-") && device.uniq.utf8.count == 27)

        var written: [[UInt8]] = []
        while written.count < 6, let event = try kernel.receive() { written.append(event) }
        let create = try #require(written.first { $0.first == 11 })
        #expect(Array(create[4..<34]) == Array("gesturectl virtual touchscreen".utf8))
        #expect(Array(create[196..<223]) == Array(device.uniq.utf8))
        // phys: unique per device too, so libinput does not group two plays' devices.
        #expect(Array(create[132..<164]) == Array(("gesturectl/uhid/" + device.uniq.dropFirst(11)).utf8))
        #expect(create[164] == 0)
        #expect(Array(create[280...]) == [0x05, 0x0D, 0xC0])
        let replies = written.filter { $0.first != 11 }
        #expect(
            replies == [
                try UhidCodec.getReportReply(id: 1, error: 0, data: [0x02, 0x0A]),
                UhidCodec.getReportRefusal(id: 2, error: 5),
                UhidCodec.getReportRefusal(id: 3, error: 5),
                UhidCodec.setReportReply(id: 4, error: 0),
                try UhidCodec.getReportReply(id: 5, error: 0, data: [0x03, 0x02]),
            ])

        try device.send(report: [0x01, 0x01, 0x00, 0x7F])
        #expect(try kernel.receive() == [12, 0, 0, 0, 4, 0, 0x01, 0x01, 0x00, 0x7F])
        let status = device.status
        #expect(status.isStarted && status.startFlags == 0b101 && status.isOpen)
        #expect(status.setReports == [3: [0x03, 0x02]])
        #expect(status.reportsAnswered == 2 && status.reportsRefused == 2)

        device.close()
        #expect(try kernel.receive() == [1, 0, 0, 0])  // UHID_DESTROY
        #expect(try kernel.receive() == nil)  // and the descriptor closed
        device.close()
        #expect(throws: UhidError.closed) { try device.send(report: [0x01]) }
    }

    @Test func aDriverThatNeverBindsIsAnErrorAndTheDeviceIsDestroyed() throws {
        let kernel = try FakeUhidKernel()
        #expect(throws: UhidError.driverNotBound(device: Self.description.name, waited: Microseconds(50_000))) {
            try makeDevice(kernel, driverTimeout: Microseconds(50_000))
        }
        #expect(try kernel.receive()?.first == 11)
        #expect(try kernel.receive() == [1, 0, 0, 0])
        #expect(try kernel.receive() == nil)
    }

    @Test func theNodeIsTheOneUdevAnnouncesWithOurUniq() throws {
        let kernel = try FakeUhidKernel()
        try kernel.send(FakeUhidKernel.start(flags: 0))
        func added(_ node: String, uniq: String?) -> UdevEvent {
            UdevEvent(action: .add, device: UdevInputDevice(node: node, syspath: "/sys/x", uniq: uniq))
        }
        let monitor = try QueuedUdevSource([
            added("/dev/input/event3", uniq: nil), added("/dev/input/event4", uniq: "gesturectl-other"),
            added("/dev/input/event9", uniq: "gesturectl-ours"),
        ])
        let device = try makeDevice(kernel, monitor: monitor, findNode: { _ in "/dev/input/wrong" }, uniq: "gesturectl-ours")
        #expect(device.devnode == "/dev/input/event9")
        #expect(device.isInitialisedByUdev)
    }

    @Test func withoutUdevTheNodeIsLookedUpByUniq() throws {
        let kernel = try FakeUhidKernel()
        try kernel.send(FakeUhidKernel.start(flags: 0))
        let asked = Mutex<String?>(nil)
        let device = try makeDevice(kernel, findNode: { uniq in
            asked.withLock { $0 = uniq }
            return "/dev/input/event5"
        })
        #expect(device.devnode == "/dev/input/event5")
        #expect(!device.isInitialisedByUdev)
        #expect(asked.withLock { $0 } == device.uniq)
    }

    @Test func deinitDestroysTheDevice() throws {
        let kernel = try FakeUhidKernel()
        try kernel.send(FakeUhidKernel.start(flags: 0))
        do {
            let device = try makeDevice(kernel)
            _ = device.status
        }
        #expect(try kernel.receive()?.first == 11)
        #expect(try kernel.receive() == [1, 0, 0, 0])
        #expect(try kernel.receive() == nil)
    }

    @Test func anOversizedDescriptorIsRefusedBeforeAnythingIsWritten() throws {
        let kernel = try FakeUhidKernel()
        var description = Self.description
        description.reportDescriptor = []
        #expect(throws: UhidError.invalidDescription(.descriptorSize(0))) {
            try UhidDevice(
                description: description, descriptor: kernel.deviceEnd, path: "fake-uhid", monitor: nil,
                findNode: { _ in nil }, driverTimeout: .zero, udevTimeout: .zero, clock: SystemClock())
        }
        #expect(try kernel.receive() == nil)
    }
}
