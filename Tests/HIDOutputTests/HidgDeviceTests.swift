import Foundation
import GestureModel
import HIDOutput
import OperatingSystem
import TestSupport
import Testing

/// A FIFO stands in for /dev/hidgN: its reader is the host. A write waits
/// for room as a hidg write waits for the host to take the last report.
@Suite struct HidgDeviceTests {
    @Test func reportsArriveWholeWhileTheHostReads() throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-hidg")
        let path = folder.file("hidg0")
        #expect(mkfifo(path, 0o600) == 0)
        let host = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
        defer { host.close() }
        let device = try HidgDevice(path: path, timeout: Microseconds(200_000))
        try device.send(report: [0x01, 0x02, 0x03])
        try device.send(report: [0x01, 0x04, 0x05])
        #expect(try host.read(upTo: 16) == [0x01, 0x02, 0x03, 0x01, 0x04, 0x05])
    }

    @Test func aHostThatDoesNotReadIsSaidAfterTheTimeout() throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-hidg")
        let path = folder.file("hidg0")
        #expect(mkfifo(path, 0o600) == 0)
        let host = try FileDescriptor.open(path, [.readOnly, .nonBlocking])
        defer { host.close() }
        let device = try HidgDevice(path: path, timeout: Microseconds(50_000))
        let report = [UInt8](repeating: 7, count: 4_096)
        var caught: GadgetError?
        // The pipe holds 64 KiB: it fills, then the timeout runs out.
        for _ in 0..<1_000 {
            do {
                try device.send(report: report)
            } catch let error as GadgetError {
                caught = error
                break
            }
        }
        let error = try #require(caught)
        #expect(error.kind == .hostNotReading)
        #expect(error.message.contains("the host is not reading (is the cable in a host's port, is the host awake?)"))
        #expect(error.message.contains(path))
    }

    @Test func aMissingNodeSaysLookAtTheGadget() throws {
        do throws(GadgetError) {
            _ = try HidgDevice(path: "/nonexistent/hidg9")
            Issue.record("opened a missing node")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.message.contains("gesturectl gadget status"))
        }
    }
}
