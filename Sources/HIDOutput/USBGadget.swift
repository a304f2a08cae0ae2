import OperatingSystem

/// One HID function of a gadget: its configfs instance name (`hid.NAME`)
/// and the device it presents.
public struct GadgetFunction: Hashable, Sendable {
    /// The instance: `touchscreen`, `mouse` or `buttons` (configfs `functions/hid.INSTANCE`).
    public var instance: String
    /// The HID device: report descriptor, report length, subclass, protocol.
    public var description: HIDDeviceDescription

    /// The touchscreen digitizer's instance name.
    public static let touchscreen = "touchscreen"
    /// The mouse's instance name.
    public static let mouse = "mouse"
    /// The buttons' (consumer control and keyboard) instance name.
    public static let buttons = "buttons"

    /// Creates a function.
    public init(instance: String, description: HIDDeviceDescription) {
        self.instance = instance
        self.description = description
    }
}

/// What `gesturectl gadget up` builds: the USB device's identity and its HID functions.
public struct GadgetSpecification: Hashable, Sendable {
    /// The configfs name (`/sys/kernel/config/usb_gadget/NAME`).
    public var name: String
    /// USB vendor id (default 0x1d6b, the Linux Foundation, as Linux's own gadgets use).
    public var vendor: UInt16
    /// USB product id (default 0x0104, "Multifunction Composite Gadget").
    public var product: UInt16
    /// bcdDevice (default 0x0100).
    public var deviceVersion: UInt16
    /// The manufacturer string the host shows.
    public var manufacturer: String
    /// The product string the host shows.
    public var productName: String
    /// The serial number string.
    public var serialNumber: String
    /// The current drawn from the host, in mA (configs/c.1/MaxPower).
    public var maxPower: Int
    /// The HID functions, in order (the first is /dev/hidg0 on a machine without other HID gadgets).
    public var functions: [GadgetFunction]
    /// The controller to bind to; `nil` for the first in /sys/class/udc.
    public var controller: String?

    /// The default configfs name.
    public static let defaultName = "gesturectl"

    /// Creates a specification; see each property for the defaults.
    public init(
        name: String = defaultName, vendor: UInt16 = 0x1d6b, product: UInt16 = 0x0104, deviceVersion: UInt16 = 0x0100,
        manufacturer: String = "gesturectl", productName: String = "HID touchscreen",
        serialNumber: String? = nil, maxPower: Int = 100, functions: [GadgetFunction], controller: String? = nil
    ) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.deviceVersion = deviceVersion
        self.manufacturer = manufacturer
        self.productName = productName
        self.serialNumber = serialNumber ?? name
        self.maxPower = maxPower
        self.functions = functions
        self.controller = controller
    }
}

/// What a gadget is now, as configfs and sysfs tell it.
public struct GadgetStatus: Hashable, Sendable {
    /// The configfs name.
    public var name: String
    /// Its configfs folder.
    public var path: String
    /// The controller it is bound to; `nil` when unbound.
    public var controller: String?
    /// The controller's state (`/sys/class/udc/X/state`): `configured` when
    /// a host has taken the device, `not attached` without a cable, …;
    /// `nil` when unbound or unknown.
    public var controllerState: String?
    /// The HID functions.
    public var functions: [GadgetFunctionStatus]

    /// Whether a host has configured the device (its reports are read).
    public var isConfigured: Bool { controllerState == "configured" }

    /// The function named `instance`.
    public func function(_ instance: String) -> GadgetFunctionStatus? {
        functions.first { $0.instance == instance }
    }
}

/// One HID function of a gadget as configfs shows it.
public struct GadgetFunctionStatus: Hashable, Sendable {
    /// The instance name (`touchscreen` for `functions/hid.touchscreen`).
    public var instance: String
    /// Its configfs folder.
    public var path: String
    /// Its device node, `/dev/hidgN` (from the function's `dev`); `nil`
    /// when the kernel has not made one.
    public var devnode: String?
    /// Its report descriptor, as written.
    public var reportDescriptor: [UInt8]
    /// Its report length.
    public var reportLength: Int?
    /// Whether a configuration links it (a host sees only linked functions).
    public var isLinked: Bool
}

/// Building, removing and reading a USB gadget with HID functions through
/// configfs (libcomposite and the `hid` function, usb_f_hid).
///
/// `up` makes `usb_gadget/NAME` with its ids and strings, one
/// configuration `c.1`, a `functions/hid.INSTANCE` per function (protocol,
/// subclass, report_length, report_desc) linked into the configuration,
/// and binds it by writing a controller's name to `UDC`; when a step fails,
/// what was made is removed again. `down` undoes it in the reverse order
/// configfs requires. Every failure names the configfs path.
public struct USBGadget: Sendable {
    /// Where the machinery is.
    public let paths: GadgetPaths
    let fileSystem: any GadgetFileSystem

    /// The configuration every gadget gets.
    static let configuration = "c.1"
    /// US English, the one language of the strings.
    static let language = "0x409"

    /// Creates a builder over the system's configfs, or over `paths` and
    /// `fileSystem` (tests).
    public init(paths: GadgetPaths = .system, fileSystem: any GadgetFileSystem = SystemGadgetFileSystem()) {
        self.paths = paths
        self.fileSystem = fileSystem
    }

    // MARK: Names

    /// Checks a gadget, instance or controller name: one folder name of
    /// letters, digits, `.`, `_`, `-` and `:`, at most 64 bytes.
    public static func checkName(_ name: String, what: String) throws(GadgetError) {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || byte == 0x2e || byte == 0x5f || byte == 0x2d || byte == 0x3a
        }
        guard allowed, !name.isEmpty, name.utf8.count <= 64, name != ".", name != ".." else {
            throw GadgetError(
                .invalid,
                "\(what) must be 1 to 64 letters, digits, '.', '_', '-' or ':' (one folder name)")
        }
    }

    // MARK: Controllers

    /// The USB device controllers, sorted (`/sys/class/udc`).
    /// - Throws: ``GadgetError/Kind/noController`` when there is none.
    public func controllers() throws(GadgetError) -> [String] {
        // Harmless: a missing or unreadable controller folder is no controller this process can use, which the error names.
        let names = (try? fileSystem.contents(of: paths.controllers)) ?? []
        guard !names.isEmpty else { throw GadgetError.noController(paths.controllers) }
        return names
    }

    /// The state of the controller `name` (`configured`, `not attached`, …), if readable.
    public func controllerState(_ name: String) -> String? {
        // Harmless: the state is shown when readable (documented), never acted on.
        guard let bytes = try? fileSystem.read(paths.controllers + "/" + name + "/state") else { return nil }
        let text = Self.trimmed(bytes)
        return text.isEmpty ? nil : text
    }

    // MARK: Readiness

    /// Makes sure libcomposite's configfs folder is there: mounts configfs
    /// when it is not mounted (`mountIfNeeded`), else says which modules to load.
    func checkKernelSupport(mountIfNeeded: Bool) throws(GadgetError) {
        if fileSystem.exists(paths.gadgets) { return }
        // Harmless: an unreadable configfs counts as not mounted; mounting it then fails with its own error.
        let mounted = !((try? fileSystem.contents(of: paths.configfs)) ?? []).isEmpty
        if !mounted && mountIfNeeded && fileSystem.exists(paths.configfs) {
            do throws(SystemError) {
                try fileSystem.mountConfigfs(at: paths.configfs)
            } catch {
                throw GadgetError.system(
                    error, doing: "configfs is not mounted and could not be (mount -t configfs none \(paths.configfs))")
            }
            if fileSystem.exists(paths.gadgets) { return }
        }
        if !mounted && !mountIfNeeded {
            throw GadgetError(
                .kernelSupportMissing,
                "configfs is not mounted on \(paths.configfs): 'gesturectl gadget up' mounts it"
                    + " (or: mount -t configfs none \(paths.configfs))")
        }
        throw GadgetError(
            .kernelSupportMissing,
            "the kernel's USB gadget support is not loaded (no \(paths.gadgets)):"
                + " run 'modprobe libcomposite usb_f_hid' as root (a kernel without CONFIG_USB_LIBCOMPOSITE cannot make gadgets)")
    }

    // MARK: Up

    /// Builds and binds the gadget; returns its status.
    /// - Throws: ``GadgetError``: no controller, kernel support missing, the
    ///   gadget exists already, the controller is taken, no root.
    @discardableResult
    public func up(_ specification: GadgetSpecification) throws(GadgetError) -> GadgetStatus {
        try Self.checkName(specification.name, what: "the gadget's name")
        if let controller = specification.controller { try Self.checkName(controller, what: "the controller's name") }
        for function in specification.functions { try Self.checkName(function.instance, what: "a function's name") }
        let available = try controllers()
        let controller = specification.controller ?? available[0]
        guard available.contains(controller) else {
            throw GadgetError(
                .notFound,
                "there is no USB device controller \(controller) in \(paths.controllers);"
                    + " there is: \(available.joined(separator: ", "))")
        }
        try checkKernelSupport(mountIfNeeded: true)
        let root = paths.gadget(specification.name)
        if fileSystem.exists(root) {
            // Harmless: only the message uses it (an unreadable UDC is shown as unbound).
            let bound = (try? fileSystem.read(root + "/UDC")).map(Self.trimmed) ?? ""
            throw GadgetError(
                .busy,
                "the gadget \(root) exists already\(bound.isEmpty ? "" : " (bound to \(bound))");"
                    + " remove it first: gesturectl gadget down --name \(specification.name)")
        }
        do throws(GadgetError) {
            try build(specification, at: root)
            try bind(root, to: controller)
        } catch {
            // Leave nothing half made; the first error is the one to tell.
            _ = try? down(name: specification.name)
            throw error
        }
        return try status(name: specification.name)
            ?? GadgetStatus(name: specification.name, path: root, controller: controller, functions: [])
    }

    private func build(_ specification: GadgetSpecification, at root: String) throws(GadgetError) {
        try makeDirectory(root, hint: nil)
        try write(Self.hex(specification.vendor), to: root + "/idVendor")
        try write(Self.hex(specification.product), to: root + "/idProduct")
        try write(Self.hex(specification.deviceVersion), to: root + "/bcdDevice")
        try write(Self.hex(0x0200), to: root + "/bcdUSB")
        let strings = root + "/strings/" + Self.language
        try ensureDirectory(root + "/strings")
        try makeDirectory(strings, hint: nil)
        try write(specification.manufacturer + "\n", to: strings + "/manufacturer")
        try write(specification.productName + "\n", to: strings + "/product")
        try write(specification.serialNumber + "\n", to: strings + "/serialnumber")
        let configuration = root + "/configs/" + Self.configuration
        try ensureDirectory(root + "/configs")
        try makeDirectory(configuration, hint: nil)
        try write("\(specification.maxPower)\n", to: configuration + "/MaxPower")
        try makeDirectory(configuration + "/strings", ifMissing: true)
        try makeDirectory(configuration + "/strings/" + Self.language, hint: nil)
        try write(
            "gesturectl HID\n", to: configuration + "/strings/" + Self.language + "/configuration")
        try ensureDirectory(root + "/functions")
        for function in specification.functions {
            let folder = root + "/functions/hid." + function.instance
            try makeDirectory(
                folder,
                hint: "is usb_f_hid loaded? run 'modprobe usb_f_hid' as root (a kernel without CONFIG_USB_CONFIGFS_F_HID has no HID function)")
            let description = function.description
            try write("\(description.protocolCode)\n", to: folder + "/protocol")
            try write("\(description.subclass)\n", to: folder + "/subclass")
            try write("\(description.inputReportLength)\n", to: folder + "/report_length")
            try writeBytes(description.reportDescriptor, to: folder + "/report_desc")
            let link = configuration + "/hid." + function.instance
            do throws(SystemError) {
                try fileSystem.makeSymbolicLink(link, to: folder)
            } catch {
                throw GadgetError.system(error, doing: "linking the function into the configuration")
            }
        }
    }

    private func bind(_ root: String, to controller: String) throws(GadgetError) {
        do throws(SystemError) {
            try fileSystem.write(Array((controller + "\n").utf8), to: root + "/UDC")
        } catch where error.errorNumber == ErrorNumber.busy {
            throw GadgetError(
                .busy,
                "the USB device controller \(controller) is taken by another gadget (write \(root)/UDC: \(error.errorMessage));"
                    + " see 'gesturectl gadget status' and the UDC files in \(paths.gadgets)/*/UDC")
        } catch {
            throw GadgetError.system(error, doing: "binding the gadget to \(controller)")
        }
    }

    // MARK: Down

    /// Unbinds and removes the gadget `name`: the controller released, the
    /// functions unlinked from the configurations, then the configurations,
    /// functions, strings and the gadget's folder removed.
    /// - Returns: false when there was no such gadget.
    @discardableResult
    public func down(name: String) throws(GadgetError) -> Bool {
        try Self.checkName(name, what: "the gadget's name")
        try checkKernelSupport(mountIfNeeded: false)
        let root = paths.gadget(name)
        guard fileSystem.exists(root) else { return false }
        // Harmless: an unreadable UDC is left alone; removing the gadget below then fails with the error that says why.
        let bound = (try? fileSystem.read(root + "/UDC")).map(Self.trimmed) ?? ""
        if !bound.isEmpty { try write("\n", to: root + "/UDC") }
        for configuration in list(root + "/configs") {
            let folder = root + "/configs/" + configuration
            for entry in list(folder) where fileSystem.isSymbolicLink(folder + "/" + entry) {
                try remove(folder + "/" + entry)
            }
            for language in list(folder + "/strings") { try removeDirectory(folder + "/strings/" + language) }
            try removeDirectory(folder)
        }
        for function in list(root + "/functions") { try removeDirectory(root + "/functions/" + function) }
        for language in list(root + "/strings") { try removeDirectory(root + "/strings/" + language) }
        try removeDirectory(root)
        return true
    }

    // MARK: Status

    /// What the gadget `name` is now; `nil` when it does not exist.
    /// - Throws: ``GadgetError/Kind/kernelSupportMissing`` when configfs or
    ///   libcomposite is missing (then no gadget can exist).
    public func status(name: String) throws(GadgetError) -> GadgetStatus? {
        try Self.checkName(name, what: "the gadget's name")
        try checkKernelSupport(mountIfNeeded: false)
        let root = paths.gadget(name)
        guard fileSystem.exists(root) else { return nil }
        // Harmless: the status shows an unreadable UDC as unbound.
        let bound = (try? fileSystem.read(root + "/UDC")).map(Self.trimmed) ?? ""
        let linked = Set(
            list(root + "/configs").flatMap { configuration in
                list(root + "/configs/" + configuration).filter {
                    fileSystem.isSymbolicLink(root + "/configs/" + configuration + "/" + $0)
                }
            })
        var functions: [GadgetFunctionStatus] = []
        for folder in list(root + "/functions") where folder.hasPrefix("hid.") {
            let path = root + "/functions/" + folder
            // Harmless: a function whose attributes cannot be read is listed without them; playing on it checks its layout and says what is missing.
            let descriptor = (try? fileSystem.read(path + "/report_desc")) ?? []
            let length = (try? fileSystem.read(path + "/report_length")).flatMap { Int(Self.trimmed($0)) }
            functions.append(
                GadgetFunctionStatus(
                    instance: String(folder.dropFirst(4)), path: path, devnode: devnode(ofFunction: path),
                    reportDescriptor: descriptor, reportLength: length, isLinked: linked.contains(folder)))
        }
        return GadgetStatus(
            name: name, path: root, controller: bound.isEmpty ? nil : bound,
            controllerState: bound.isEmpty ? nil : controllerState(bound), functions: functions)
    }

    /// `/dev/hidgN` of a HID function: the kernel names the node by the
    /// minor number the function's `dev` attribute shows (`MAJOR:MINOR`).
    func devnode(ofFunction path: String) -> String? {
        // Harmless: no readable dev attribute is no node, which the caller reports ("has no device node").
        guard let bytes = try? fileSystem.read(path + "/dev") else { return nil }
        let parts = Self.trimmed(bytes).split(separator: ":")
        guard parts.count == 2, let minor = Int(parts[1]), minor >= 0 else { return nil }
        return paths.devices + "/hidg\(minor)"
    }

    // MARK: Helpers

    static func trimmed(_ bytes: [UInt8]) -> String {
        var text = bytes
        while let last = text.last, last == 0x0a || last == 0x20 || last == 0 { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "\n"
    }

    // Harmless: an unreadable folder lists nothing; what was expected in it is then reported missing by name.
    private func list(_ path: String) -> [String] { (try? fileSystem.contents(of: path)) ?? [] }

    private func write(_ text: String, to path: String) throws(GadgetError) {
        try writeBytes(Array(text.utf8), to: path)
    }

    private func writeBytes(_ bytes: [UInt8], to path: String) throws(GadgetError) {
        do throws(SystemError) {
            try fileSystem.write(bytes, to: path)
        } catch {
            throw GadgetError.system(error, doing: "writing the gadget")
        }
    }

    private func ensureDirectory(_ path: String) throws(GadgetError) {
        try makeDirectory(path, ifMissing: true)
    }

    private func makeDirectory(_ path: String, ifMissing: Bool) throws(GadgetError) {
        if ifMissing && fileSystem.exists(path) { return }
        try makeDirectory(path, hint: nil)
    }

    private func makeDirectory(_ path: String, hint: String?) throws(GadgetError) {
        do throws(SystemError) {
            try fileSystem.makeDirectory(path)
        } catch {
            if let hint, error.kind == .notFound {
                throw GadgetError(.kernelSupportMissing, "mkdir \(path) failed: \(error.errorMessage); \(hint)")
            }
            throw GadgetError.system(error, doing: "building the gadget")
        }
    }

    private func removeDirectory(_ path: String) throws(GadgetError) {
        do throws(SystemError) {
            try fileSystem.removeDirectory(path)
        } catch {
            throw GadgetError.system(error, doing: "removing the gadget")
        }
    }

    private func remove(_ path: String) throws(GadgetError) {
        do throws(SystemError) {
            try fileSystem.remove(path)
        } catch {
            throw GadgetError.system(error, doing: "removing the gadget")
        }
    }
}
