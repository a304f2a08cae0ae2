import GesturePlayback
import GestureModel
import HIDOutput
import OperatingSystem

extension Engine {
    /// The profile of the HID function of kind `kind` of the gadget `name`
    /// (made by `gesturectl gadget up`): frames are built for its geometry.
    /// A touchscreen's is read back from the function's `report_desc`, so
    /// a play fits the surface the host was told about; the mouse's and the
    /// keyboard's (`press --to gadget`: the buttons function) are fixed.
    /// - Throws: ``PlayOutputError/unavailable(output:reason:)`` without the
    ///   gadget or the function (with the command that makes it),
    ///   ``PlayOutputError/unsupportedKind(output:kind:hint:)`` for a
    ///   touchpad or tablet gesture, ``HIDOutput/GadgetError`` when configfs
    ///   cannot be read.
    func gadgetProfile(name: String?, kind: DeviceKind) throws -> VirtualDeviceProfile {
        let function = try gadgetFunction(name: name, kind: kind).function
        switch kind {
        case .touchscreen:
            guard let layout = function.touchscreenLayout else {
                throw PlayOutputError.unavailable(
                    output: "gadget",
                    reason: "\(function.path)/report_desc is not a touchscreen gesturectl made;"
                        + " rebuild the gadget: gesturectl gadget down, then gesturectl gadget up")
            }
            return layout.profile()
        case .keyboard:
            return VirtualDeviceProfile.keyboard()
        default:
            return VirtualDeviceProfile.mouse()
        }
    }

    /// A session writing to the gadget's HID function for `profile`
    /// (``PlayOutput/gadget(name:)``): its `/dev/hidgN` through a
    /// ``HIDOutput/HidgDevice`` (writes time out when the host does not
    /// read) under a ``HIDOutput/HIDFrameSink``.
    /// - Throws: ``PlayOutputError/unavailable(output:reason:)`` when the
    ///   gadget, the function or its node is missing or no host has
    ///   configured the gadget; ``HIDOutput/GadgetError`` when the node
    ///   cannot be opened (`.permissionDenied`: the node's group).
    func gadgetSession(name: String?, profile: VirtualDeviceProfile, linger: Microseconds) throws -> PlaybackSession {
        let (status, function) = try gadgetFunction(name: name, kind: profile.kind)
        guard let devnode = function.devnode else {
            throw PlayOutputError.unavailable(
                output: "gadget", reason: "\(function.path) has no device node (no dev attribute): is usb_f_hid loaded?")
        }
        guard status.controller != nil else {
            throw PlayOutputError.unavailable(
                output: "gadget",
                reason: "the gadget \(status.path) is not bound to a USB device controller (its UDC is empty);"
                    + " rebuild it: gesturectl gadget down\(Self.nameOption(name)), then gesturectl gadget up\(Self.nameOption(name))")
        }
        if let state = status.controllerState, state != "configured" {
            throw PlayOutputError.unavailable(
                output: "gadget",
                reason: "no host has configured the gadget (\(status.controller ?? "its controller") is \(state)):"
                    + " is the cable in a host's port, is the host awake?")
        }
        let device = try HidgDevice(path: devnode)
        let sink = try HIDFrameSink(profile: profile, output: device)
        return PlaybackSession(profile: profile, sink: sink, devnode: devnode, isInitialisedByUdev: true, linger: linger)
    }

    /// The gadget's status and its function that plays `kind`.
    private func gadgetFunction(name: String?, kind: DeviceKind) throws -> (
        status: GadgetStatus, function: GadgetFunctionStatus
    ) {
        let instance: String
        let option: String
        switch kind {
        case .touchscreen:
            instance = GadgetFunction.touchscreen
            option = ""
        case .mouse:
            instance = GadgetFunction.mouse
            option = " --mouse"
        case .keyboard:
            instance = GadgetFunction.buttons
            option = " --buttons"
        case .touchpad, .tablet, .other:
            throw PlayOutputError.unsupportedKind(
                output: "gadget", kind: kind, hint: "play it as a touchscreen (--as touchscreen) or a mouse (--as mouse)")
        }
        let gadgetName = name ?? GadgetSpecification.defaultName
        let gadget = USBGadget(paths: gadgetPaths)
        let found: GadgetStatus?
        switch Result(catching: { () throws(GadgetError) in try gadget.status(name: gadgetName) }) {
        case .success(let status):
            found = status
        case .failure(let error) where error.kind == .kernelSupportMissing:
            throw PlayOutputError.unavailable(
                output: "gadget",
                reason: "there is no gadget (\(error.message)); make it (as root): gesturectl gadget up\(Self.nameOption(name))\(option)")
        case .failure(let error):
            throw error
        }
        guard let status = found else {
            throw PlayOutputError.unavailable(
                output: "gadget",
                reason: "there is no gadget \(gadget.paths.gadget(gadgetName)); make it (as root):"
                    + " gesturectl gadget up\(Self.nameOption(name))\(option)")
        }
        guard let function = status.function(instance) else {
            throw PlayOutputError.unavailable(
                output: "gadget",
                reason: "the gadget \(status.path) has no \(kind.rawValue) function (functions/hid.\(instance)); rebuild it (as root):"
                    + " gesturectl gadget down\(Self.nameOption(name)), then gesturectl gadget up\(Self.nameOption(name))\(option)")
        }
        return (status, function)
    }

    private static func nameOption(_ name: String?) -> String {
        guard let name, name != GadgetSpecification.defaultName else { return "" }
        return " --name \(name)"
    }
}
