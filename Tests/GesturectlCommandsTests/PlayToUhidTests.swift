import Foundation
import Testing
import TestSupport

/// `play --to uhid` where the kernel is not needed: what cannot play
/// through uhid is refused before /dev/uhid is opened, in one line, and a
/// missing uhid says what to load. (Playing for real: Tests/Integration/cases/50-uhid.)
@Suite struct PlayToUhidTests {
    static let hasUhid = FileManager.default.fileExists(atPath: "/dev/uhid")

    @Test(arguments: ["tablet", "touchpad"])
    func kindsWithoutAHIDFormAreRefused(kind: String) throws {
        let result = try CLI.run(["play", "tap", "--to", "uhid", "--as", kind])
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix(
                "gesturectl: error: --to uhid cannot play a \(kind) gesture; play it as a touchscreen (--as touchscreen) or a mouse (--as mouse)\n"
            ))
    }

    @Test func aCloneIsRefused() throws {
        let result = try CLI.run(["play", "tap", "--to", "uhid", "--clone", "/dev/input/event0"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --clone cannot play --to uhid: a clone copies a device's evdev description"))
    }

    @Test(.enabled(if: !hasUhid), arguments: ["touchscreen", "mouse"])
    func withoutUhidItSaysWhatToLoad(kind: String) throws {
        let result = try CLI.run(["play", "tap", "--to", "uhid", "--as", kind])
        #expect(result.status == 3)
        #expect(
            result.stderr
                == "gesturectl: error: open /dev/uhid failed: No such file or directory (errno 2); this kernel has no uhid loaded: load it with 'modprobe uhid'\n"
        )
    }

    @Test func helpTeachesIt() throws {
        let result = try CLI.run(["help", "play"])
        #expect(result.stdout.contains("--to uhid makes a real HID device through /dev/uhid"))
        #expect(result.stdout.contains("gesturectl play pinch-in --to uhid"))
    }
}
