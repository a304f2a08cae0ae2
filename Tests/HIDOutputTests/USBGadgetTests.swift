import Foundation
import HIDOutput
import OperatingSystem
import Testing

/// A made-up HID function: what is written must be what was given.
private func function(_ instance: String, descriptor: [UInt8] = [0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0xc0], length: Int = 9)
    -> GadgetFunction
{
    GadgetFunction(
        instance: instance,
        description: HIDDeviceDescription(
            name: instance, vendor: 1, product: 2, reportDescriptor: descriptor, inputReportLength: length,
            subclass: 0, protocolCode: 0))
}

private func failure(_ body: () throws -> Void) -> GadgetError? {
    do {
        try body()
        return nil
    } catch {
        return error as? GadgetError
    }
}

@Suite struct USBGadgetTests {
    @Test func upBuildsTheTreeAndBindsTheFirstController() throws {
        let configfs = try FolderConfigfs(controllers: ["dummy_udc.1", "dummy_udc.0"])
        let descriptor: [UInt8] = [0x05, 0x0d, 0x09, 0x04, 0xa1, 0x01, 0x85, 0x01, 0xc0, 0x00, 0xff]
        try configfs.gadget.up(
            GadgetSpecification(functions: [function("touchscreen", descriptor: descriptor, length: 64), function("mouse")]))
        let root = configfs.paths.gadget("gesturectl")
        #expect(configfs.text(root + "/idVendor") == "0x1d6b\n")
        #expect(configfs.text(root + "/idProduct") == "0x0104\n")
        #expect(configfs.text(root + "/bcdUSB") == "0x0200\n")
        #expect(configfs.text(root + "/bcdDevice") == "0x0100\n")
        #expect(configfs.text(root + "/strings/0x409/manufacturer") == "gesturectl\n")
        #expect(configfs.text(root + "/strings/0x409/serialnumber") == "gesturectl\n")
        #expect(configfs.text(root + "/configs/c.1/MaxPower") == "100\n")
        #expect(configfs.text(root + "/configs/c.1/strings/0x409/configuration") == "gesturectl HID\n")
        #expect(configfs.text(root + "/functions/hid.touchscreen/report_length") == "64\n")
        #expect(configfs.text(root + "/functions/hid.touchscreen/protocol") == "0\n")
        #expect(configfs.text(root + "/functions/hid.touchscreen/subclass") == "0\n")
        #expect(try SystemGadgetFileSystem().read(root + "/functions/hid.touchscreen/report_desc") == descriptor)
        #expect(try FileSystem.linkTarget(root + "/configs/c.1/hid.touchscreen") == root + "/functions/hid.touchscreen")
        #expect(try FileSystem.linkTarget(root + "/configs/c.1/hid.mouse") == root + "/functions/hid.mouse")
        // The first controller by name, whatever order the folder lists.
        #expect(configfs.text(root + "/UDC") == "dummy_udc.0\n")
    }

    @Test func statusTellsBindingStateAndNodes() throws {
        let configfs = try FolderConfigfs()
        let descriptor: [UInt8] = [0x05, 0x01, 0x09, 0x02]
        try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen"), function("mouse", descriptor: descriptor)]))
        try configfs.setState("configured", of: "dummy_udc.0")
        let status = try #require(try configfs.gadget.status(name: "gesturectl"))
        #expect(status.controller == "dummy_udc.0")
        #expect(status.controllerState == "configured")
        #expect(status.isConfigured)
        #expect(status.functions.map(\.instance) == ["mouse", "touchscreen"])
        #expect(status.function("touchscreen")?.devnode == "/dev/hidg0")
        #expect(status.function("mouse")?.devnode == "/dev/hidg1")
        #expect(status.function("mouse")?.reportDescriptor == descriptor)
        #expect(status.function("mouse")?.reportLength == 9)
        #expect(status.function("mouse")?.isLinked == true)
        #expect(try configfs.gadget.status(name: "other") == nil)
    }

    @Test func downUnbindsAndRemovesInConfigfsOrder() throws {
        let configfs = try FolderConfigfs()
        try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen"), function("buttons")]))
        let root = configfs.paths.gadget("gesturectl")
        #expect(try configfs.gadget.down(name: "gesturectl"))
        #expect(!configfs.exists(root))
        // Links before the configuration, the configuration before the
        // functions, the gadget last.
        let removed = configfs.removed.map { String($0.dropFirst(root.count)) }
        #expect(
            removed == [
                "/configs/c.1/hid.buttons", "/configs/c.1/hid.touchscreen", "/configs/c.1/strings/0x409", "/configs/c.1",
                "/functions/hid.buttons", "/functions/hid.touchscreen", "/strings/0x409", "",
            ])
        #expect(try configfs.gadget.down(name: "gesturectl") == false)
    }

    @Test func aMachineWithoutControllerSaysWhichBoardsCan() throws {
        let configfs = try FolderConfigfs(controllers: [])
        let error = try #require(failure { try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")])) })
        #expect(error.kind == .noController)
        #expect(error.message.contains("no USB device controller"))
        #expect(error.message.contains("Raspberry Pi 4/5 or Zero"))
        #expect(!configfs.exists(configfs.paths.gadget("gesturectl")))
    }

    @Test func missingModulesAreNamed() throws {
        let configfs = try FolderConfigfs(libcomposite: false)
        let error = try #require(failure { try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")])) })
        #expect(error.kind == .kernelSupportMissing)
        #expect(error.message.contains("modprobe libcomposite usb_f_hid"))
        #expect(configfs.mounts.isEmpty)
        let statusError = try #require(failure { _ = try configfs.gadget.status(name: "gesturectl") })
        #expect(statusError.kind == .kernelSupportMissing)
    }

    @Test func configfsIsMountedByUpOnly() throws {
        let configfs = try FolderConfigfs(mounted: false)
        let statusError = try #require(failure { _ = try configfs.gadget.status(name: "gesturectl") })
        #expect(statusError.message.contains("configfs is not mounted"))
        #expect(configfs.mounts.isEmpty)
        try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")]))
        #expect(configfs.mounts == [configfs.paths.configfs])
        #expect(try configfs.gadget.status(name: "gesturectl")?.controller == "dummy_udc.0")
    }

    @Test func withoutTheHIDFunctionNothingIsLeftHalfMade() throws {
        let configfs = try FolderConfigfs()
        configfs.refuseHIDFunctions()
        let error = try #require(failure { try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")])) })
        #expect(error.kind == .kernelSupportMissing)
        #expect(error.message.contains("modprobe usb_f_hid"))
        #expect(error.message.contains("functions/hid.touchscreen"))
        #expect(!configfs.exists(configfs.paths.gadget("gesturectl")))
    }

    @Test func anExistingGadgetIsNotReplaced() throws {
        let configfs = try FolderConfigfs()
        try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")]))
        let error = try #require(failure { try configfs.gadget.up(GadgetSpecification(functions: [function("mouse")])) })
        #expect(error.kind == .busy)
        #expect(error.message.contains("exists already (bound to dummy_udc.0)"))
        #expect(error.message.contains("gesturectl gadget down --name gesturectl"))
        #expect(configfs.exists(configfs.paths.gadget("gesturectl") + "/functions/hid.touchscreen"))
    }

    @Test func aNamedControllerMustExist() throws {
        let configfs = try FolderConfigfs(controllers: ["fe980000.usb"])
        let error = try #require(failure {
            try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")], controller: "dummy_udc.0"))
        })
        #expect(error.kind == .notFound)
        #expect(error.message.contains("there is: fe980000.usb"))
        try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")], controller: "fe980000.usb"))
        #expect(try configfs.gadget.status(name: "gesturectl")?.controller == "fe980000.usb")
    }

    @Test func namesAreOneFolderName() throws {
        let configfs = try FolderConfigfs()
        for name in ["", "..", "a/b", "x y", String(repeating: "a", count: 65)] {
            let error = failure { try configfs.gadget.up(GadgetSpecification(name: name, functions: [function("touchscreen")])) }
            #expect(error?.kind == .invalid, "\(name)")
        }
        #expect(failure { _ = try configfs.gadget.down(name: "../x") }?.kind == .invalid)
    }

    @Test func withoutRootTheMessageSaysSoAndNamesThePath() throws {
        let configfs = try FolderConfigfs()
        configfs.refuseEverything(with: ErrorNumber.accessDenied)
        let error = try #require(failure { try configfs.gadget.up(GadgetSpecification(functions: [function("touchscreen")])) })
        #expect(error.kind == .permissionDenied)
        #expect(error.message.contains(configfs.paths.gadget("gesturectl")))
        #expect(error.message.contains("needs root"))
    }
}
