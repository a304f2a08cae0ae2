import Foundation
import HIDOutput
import OperatingSystem
import Synchronization
import TestSupport

/// A plain folder standing in for configfs and sysfs, with what the kernel
/// would do that a folder does not: a HID function's folder gets its `dev`
/// attribute (`236:N`, N counting up), a removed folder takes its attribute
/// files with it, and a folder still holding links or subfolders, or a
/// gadget still bound (`UDC` not empty), cannot be removed.
final class FolderConfigfs: GadgetFileSystem, Sendable {
    let folder: TemporaryFolder
    let paths: GadgetPaths
    private let real = SystemGadgetFileSystem()
    private struct State {
        var nextMinor = 0
        var mounts: [String] = []
        var refuseHIDFunctions = false
        var refuseWith: Int32?
        var removed: [String] = []
    }
    private let state = Mutex(State())

    /// A stand-in with configfs mounted and libcomposite loaded (`usb_gadget`
    /// there) and the given controllers in the udc class (each `not attached`).
    init(controllers: [String] = ["dummy_udc.0"], mounted: Bool = true, libcomposite: Bool = true) throws {
        folder = try TemporaryFolder(prefix: "gesturectl-configfs")
        paths = GadgetPaths(
            configfs: folder.file("config"), controllers: folder.file("udc"), modules: folder.file("module"),
            devices: "/dev")
        let manager = FileManager.default
        try manager.createDirectory(atPath: paths.configfs, withIntermediateDirectories: true)
        if mounted && libcomposite { try manager.createDirectory(atPath: paths.gadgets, withIntermediateDirectories: true) }
        if mounted && !libcomposite { try manager.createDirectory(atPath: paths.configfs + "/other", withIntermediateDirectories: true) }
        try manager.createDirectory(atPath: paths.controllers, withIntermediateDirectories: true)
        for controller in controllers {
            try manager.createDirectory(atPath: paths.controllers + "/" + controller, withIntermediateDirectories: true)
            try setState("not attached", of: controller)
        }
    }

    var gadget: USBGadget { USBGadget(paths: paths, fileSystem: self) }
    var mounts: [String] { state.withLock { $0.mounts } }
    var removed: [String] { state.withLock { $0.removed } }

    func setState(_ text: String, of controller: String) throws {
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: paths.controllers + "/" + controller + "/state"))
    }

    /// mkdir of a HID function fails with ENOENT, as without usb_f_hid.
    func refuseHIDFunctions() { state.withLock { $0.refuseHIDFunctions = true } }

    /// Every write and mkdir fails with `errorNumber` (EACCES: not root).
    func refuseEverything(with errorNumber: Int32) { state.withLock { $0.refuseWith = errorNumber } }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    // MARK: GadgetFileSystem

    func exists(_ path: String) -> Bool { real.exists(path) }
    func isSymbolicLink(_ path: String) -> Bool { real.isSymbolicLink(path) }
    func contents(of path: String) throws(SystemError) -> [String] { try real.contents(of: path) }
    func read(_ path: String) throws(SystemError) -> [UInt8] { try real.read(path) }

    func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        if let errorNumber = state.withLock({ $0.refuseWith }) {
            throw SystemError(call: "open", path: path, errorNumber: errorNumber)
        }
        try real.write(bytes, to: path)
    }

    func makeDirectory(_ path: String) throws(SystemError) {
        let (refuseHID, refuseWith) = state.withLock { ($0.refuseHIDFunctions, $0.refuseWith) }
        if let refuseWith { throw SystemError(call: "mkdir", path: path, errorNumber: refuseWith) }
        let isFunction = path.split(separator: "/").dropLast().last == "functions" && path.split(separator: "/").last!.hasPrefix("hid.")
        if isFunction && refuseHID { throw SystemError(call: "mkdir", path: path, errorNumber: ErrorNumber.noSuchFile) }
        try real.makeDirectory(path)
        if isFunction {
            let minor = state.withLock { current in
                defer { current.nextMinor += 1 }
                return current.nextMinor
            }
            try real.write(Array("236:\(minor)\n".utf8), to: path + "/dev")
        }
    }

    func removeDirectory(_ path: String) throws(SystemError) {
        if let bound = try? real.read(path + "/UDC"), bound.contains(where: { $0 > 0x20 }) {
            throw SystemError(call: "rmdir", path: path, errorNumber: ErrorNumber.busy, detail: "still bound")
        }
        // configfs: attribute files go with their folder; default groups
        // (configs, functions, strings) too once they are empty.
        for name in try real.contents(of: path) {
            let entry = path + "/" + name
            if real.isSymbolicLink(entry) { continue }
            let status = try Paths.status(entry)
            if status.type == .regular { try FileSystem.unlink(entry) }
            if status.type == .directory, try real.contents(of: entry).isEmpty { try FileSystem.removeDirectory(entry) }
        }
        try real.removeDirectory(path)
        state.withLock { $0.removed.append(path) }
    }

    func makeSymbolicLink(_ path: String, to target: String) throws(SystemError) {
        try real.makeSymbolicLink(path, to: target)
    }

    func remove(_ path: String) throws(SystemError) {
        try real.remove(path)
        state.withLock { $0.removed.append(path) }
    }

    func mountConfigfs(at path: String) throws(SystemError) {
        state.withLock { $0.mounts.append(path) }
        try real.makeDirectory(path + "/usb_gadget")
    }
}
