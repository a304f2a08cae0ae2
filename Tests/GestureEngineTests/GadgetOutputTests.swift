import Foundation
import GestureEngine
import GestureModel
import GesturePlayback
import GestureSynth
import HIDOutput
import OperatingSystem
import TestSupport
import Testing

/// `play --to gadget` against a folder standing in for configfs and sysfs,
/// with a FIFO standing in for /dev/hidg0 (its reader is the host).
@Suite struct GadgetOutputTests {
    struct Rig {
        let folder: TemporaryFolder
        let paths: GadgetPaths
        var engine: Engine { Engine(gadgetPaths: paths) }

        init(mouse: Bool = false, buttons: Bool = false, state: String = "configured") throws {
            folder = try TemporaryFolder(prefix: "gesturectl-gadget-engine")
            paths = GadgetPaths(
                configfs: folder.file("config"), controllers: folder.file("udc"), modules: folder.file("module"),
                devices: folder.path)
            let manager = FileManager.default
            try manager.createDirectory(atPath: paths.gadgets, withIntermediateDirectories: true)
            try manager.createDirectory(atPath: paths.controllers + "/dummy_udc.0", withIntermediateDirectories: true)
            try folder.write("udc/dummy_udc.0/state", state + "\n")
            let layout = try GadgetPlan.touchscreen(contacts: 5, widthMM: 100, heightMM: 60)
            try USBGadget(paths: paths).up(GadgetPlan.specification(touchscreen: layout, mouse: mouse, buttons: buttons))
            // What the kernel does: each HID function's dev attribute.
            try folder.write("config/usb_gadget/gesturectl/functions/hid.touchscreen/dev", "239:0\n")
            if mouse { try folder.write("config/usb_gadget/gesturectl/functions/hid.mouse/dev", "239:1\n") }
        }
    }

    private func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as PlayOutputError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    @Test func theProfileIsTheOneTheHostWasToldAbout() throws {
        let rig = try Rig()
        let request = PlayRequest(gesture: try GestureSynthesizer.tap(), output: .gadget(name: nil))
        let profile = try rig.engine.profile(for: request)
        let expected = try GadgetPlan.touchscreen(contacts: 5, widthMM: 100, heightMM: 60).profile()
        #expect(profile == expected)
    }

    @Test func whatIsMissingComesWithTheCommandThatMakesIt() throws {
        let rig = try Rig()
        let tap = try GestureSynthesizer.tap()
        let other = reason { _ = try rig.engine.profile(for: PlayRequest(gesture: tap, output: .gadget(name: "rig2"))) }
        #expect(other?.contains("gesturectl gadget up --name rig2") == true)
        let mouse = reason {
            _ = try rig.engine.profile(for: PlayRequest(gesture: tap, target: .kind(.mouse), output: .gadget(name: nil)))
        }
        #expect(mouse?.contains("no mouse function") == true)
        #expect(mouse?.contains("gesturectl gadget up --mouse") == true)
        let keys = reason { _ = try rig.engine.readyProfile(kind: .keyboard, output: .gadget(name: nil)) }
        #expect(keys?.contains("gesturectl gadget up --buttons") == true)
        let touchpad = reason {
            _ = try rig.engine.profile(for: PlayRequest(gesture: tap, target: .kind(.touchpad), output: .gadget(name: nil)))
        }
        #expect(touchpad?.contains("cannot play a touchpad gesture") == true)
    }

    @Test func keysAndTheMouseUseTheirFunctions() throws {
        let rig = try Rig(mouse: true, buttons: true)
        #expect(try rig.engine.readyProfile(kind: .keyboard, output: .gadget(name: nil)) == VirtualDeviceProfile.keyboard())
        #expect(try rig.engine.readyProfile(kind: .mouse, output: .gadget(name: nil)) == VirtualDeviceProfile.mouse())
    }

    @Test func aGadgetNoHostHasIsRefusedBeforePlaying() throws {
        let rig = try Rig(state: "not attached")
        let request = PlayRequest(gesture: try GestureSynthesizer.tap(), output: .gadget(name: nil))
        let refused = reason { _ = try rig.engine.startPlay(request) }
        #expect(refused?.contains("no host has configured the gadget (dummy_udc.0 is not attached)") == true)
    }

    @Test func aPlayWritesTouchscreenReportsToTheNode() throws {
        let rig = try Rig(mouse: true)
        let node = rig.folder.file("hidg0")
        #expect(mkfifo(node, 0o600) == 0)
        let host = try FileDescriptor.open(node, [.readOnly, .nonBlocking])
        defer { host.close() }
        let request = PlayRequest(
            gesture: try GestureSynthesizer.tap(fingers: 2), leadIn: .zero, linger: .zero, output: .gadget(name: nil))
        let job = try rig.engine.startPlay(request)
        #expect(job.devnode == node)
        let result = job.wait()
        #expect(result.isCompleted)
        let length = try GadgetPlan.touchscreen(contacts: 5, widthMM: 100, heightMM: 60).inputReportLength
        let bytes = try #require(try host.read(upTo: 65_536))
        #expect(!bytes.isEmpty && bytes.count % length == 0)
        // Every report is the touchscreen's input report (id 1).
        #expect(stride(from: 0, to: bytes.count, by: length).allSatisfy { bytes[$0] == HIDTouchscreenLayout.inputReportID })
    }
}
