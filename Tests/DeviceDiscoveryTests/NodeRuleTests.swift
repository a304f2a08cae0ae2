import Glibc
import GestureModel
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@testable import DeviceDiscovery

/// Issue 36: a `device` a client names opens only an input device. A path
/// udev does not list must resolve to `/dev/input/eventN`; anything else
/// is "not found" with the same message whether the path exists or not,
/// and is never opened.
@Suite struct NodeRuleTests {
    @Test func onlyEventNodesAreUnlistedNodes() {
        for path in ["/dev/input/event0", "/dev/input/event17", "/dev/input/event4294967295"] {
            #expect(DeviceSelector.isEventNode(path), "\(path)")
        }
        for path in [
            "/dev/input/event", "/dev/input/event1/", "/dev/input/event1x", "/dev/input/mice", "/dev/input/js0",
            "/dev/input/by-id/usb-x-event-if00", "/dev/input/../tty", "/dev/pts/3", "/root/.bash_history",
            "/proc/1/fd/3", "/dev/input/event99999999999", "dev/input/event1",
        ] {
            #expect(!DeviceSelector.isEventNode(path), "\(path)")
        }
    }

    @Test func otherPathsAreNotOpenedAndAnswerAsMissingOnes() throws {
        var attempts: [String] = []
        func message(_ specification: String, resolvesTo real: String?) -> String {
            do {
                _ = try DeviceSelector.open(
                    specification, udevDevices: [], resolveLink: { _ in real }, approving: { _ in },
                    open: { (node: String) throws(SystemError) -> InputDeviceDescription in
                        attempts.append(node)
                        return InputDeviceDescription(name: "x")
                    }, description: { $0 })
                return "opened"
            } catch {
                return "\(error)"
            }
        }
        let existing = message("/root/secret", resolvesTo: "/root/secret")
        let missing = message("/root/secret", resolvesTo: nil)
        #expect(existing == missing)
        #expect(existing != "opened")
        let descriptor = message("/proc/4242/fd/3", resolvesTo: "/home/other/private/notes.txt")
        #expect(!descriptor.contains("/home/other"), "\(descriptor)")
        #expect(attempts.isEmpty)
    }

    /// The open itself refuses what is no input node, as "not found", and
    /// never takes a terminal as its controlling one (O_NOCTTY): a pty, a
    /// regular file, a FIFO, a folder and a link are each refused.
    @Test func theOpenRefusesWhatIsNoInputNode() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/file"
        let fifo = folder.path + "/fifo"
        let link = folder.path + "/link"
        #expect(Glibc.close(Glibc.creat(file, 0o600)) == 0)
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(symlink(file, link) == 0)
        var paths = [file, fifo, folder.path, link, "/dev/null"]
        // A pty's far end, as a member would name their own terminal
        // (unlocked with TIOCSPTLCK, its number from TIOCGPTN).
        let pty = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        if pty >= 0, ioctl(pty, 0x4004_5431, &unlock) == 0, ioctl(pty, 0x8004_5430, &number) == 0 {
            paths.append("/dev/pts/\(number)")
        }
        defer { if pty >= 0 { Glibc.close(pty) } }
        for path in paths {
            do {
                let descriptor = try EvdevDevice.openInputNode(path)
                descriptor.close()
                Issue.record("\(path) was opened as an input node")
            } catch {
                #expect(error.kind == .notFound || error.kind == .other, "\(path): \(error)")
                if path != folder.path { #expect(error.kind == .notFound, "\(path): \(error)") }
            }
        }
    }
}
