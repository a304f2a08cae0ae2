import Glibc
import GestureModel
import InputSystem
import Testing

@testable import GesturePlayback
import OperatingSystem

/// Queued udev events behind a pipe that is readable while any are queued.
private final class FakeUdevSource: UdevEventSource {
    var events: [UdevEvent]
    let fileDescriptor: FileDescriptor
    private let writeEnd: FileDescriptor

    init(events: [UdevEvent]) {
        self.events = events
        let ends = try! FileDescriptor.pipe()
        fileDescriptor = ends.read
        writeEnd = ends.write
    }

    deinit {
        fileDescriptor.close()
        writeEnd.close()
    }

    func receive() throws(SystemError) -> UdevEvent? { events.isEmpty ? nil : events.removeFirst() }
}

@Suite("Waiting for udev")
struct UdevSettleTests {
    private func event(_ action: UdevEvent.Action, _ node: String) -> UdevEvent {
        UdevEvent(action: action, device: UdevInputDevice(node: node, syspath: "/sys/devices/virtual/input/x"))
    }

    @Test("The add event for our node ends the wait; others are skipped")
    func addArrives() {
        let source = FakeUdevSource(events: [
            event(.add, "/dev/input/event3"), event(.change, "/dev/input/event7"), event(.add, "/dev/input/event7"),
        ])
        #expect(UdevSettle.waitForDevice(monitor: source, devnode: "/dev/input/event7", timeout: .zero))
        #expect(source.events.isEmpty)
    }

    @Test("Without the event, the wait gives up at the timeout")
    func timesOut() {
        let source = FakeUdevSource(events: [event(.add, "/dev/input/event3")])
        #expect(!UdevSettle.waitForDevice(monitor: source, devnode: "/dev/input/event7", timeout: .zero))
    }
}
