import OperatingSystem

/// Where the kernel shows its USB gadget machinery. The defaults are the
/// system's; tests point them into a temporary folder.
public struct GadgetPaths: Hashable, Sendable {
    /// Where configfs is mounted (`/sys/kernel/config`).
    public var configfs: String
    /// The USB device controllers (`/sys/class/udc`): one entry per
    /// controller that can make this machine a USB device.
    public var controllers: String
    /// Loaded kernel modules (`/sys/module`).
    public var modules: String
    /// Device nodes (`/dev`), where a HID function's `/dev/hidgN` is.
    public var devices: String

    /// Creates paths; see each property.
    public init(
        configfs: String = "/sys/kernel/config", controllers: String = "/sys/class/udc",
        modules: String = "/sys/module", devices: String = "/dev"
    ) {
        self.configfs = configfs
        self.controllers = controllers
        self.modules = modules
        self.devices = devices
    }

    /// The system's paths.
    public static let system = GadgetPaths()

    /// libcomposite's folder of gadgets (`/sys/kernel/config/usb_gadget`).
    public var gadgets: String { configfs + "/usb_gadget" }

    /// The folder of the gadget `name`.
    public func gadget(_ name: String) -> String { gadgets + "/" + name }
}

/// The file operations a USB gadget is built with: configfs folders,
/// attribute files written whole, symbolic links. ``SystemGadgetFileSystem``
/// does them for real; a test can stand in a plain folder (configfs removes
/// a folder's attribute files with the folder, a plain folder does not).
public protocol GadgetFileSystem: Sendable {
    /// Whether something is at `path` (links followed).
    func exists(_ path: String) -> Bool
    /// Whether `path` is a symbolic link.
    func isSymbolicLink(_ path: String) -> Bool
    /// The names in the folder `path`, sorted.
    func contents(of path: String) throws(SystemError) -> [String]
    /// The whole content of the (small) file `path`.
    func read(_ path: String) throws(SystemError) -> [UInt8]
    /// Writes `bytes` to the attribute `path` in one write (configfs takes
    /// a value as one write).
    func write(_ bytes: [UInt8], to path: String) throws(SystemError)
    /// Creates the folder `path`.
    func makeDirectory(_ path: String) throws(SystemError)
    /// Removes the folder `path` (`rmdir`).
    func removeDirectory(_ path: String) throws(SystemError)
    /// A symbolic link at `path` to `target`.
    func makeSymbolicLink(_ path: String, to target: String) throws(SystemError)
    /// Removes the link or file `path`.
    func remove(_ path: String) throws(SystemError)
    /// Mounts configfs on `path`.
    func mountConfigfs(at path: String) throws(SystemError)
}

/// The real file system, through ``OperatingSystem``.
public struct SystemGadgetFileSystem: GadgetFileSystem {
    /// The largest file read: a report descriptor is at most 4096 bytes.
    static let readLimit = 65_536

    /// Creates the real file system.
    public init() {}

    public func exists(_ path: String) -> Bool { Paths.exists(path) }

    public func isSymbolicLink(_ path: String) -> Bool {
        // Harmless: an entry that cannot be examined is left alone; removing its folder then fails with the error that says why.
        (try? Paths.status(path, followLinks: false))?.type == .symbolicLink
    }

    public func contents(of path: String) throws(SystemError) -> [String] {
        try FileSystem.contentsOfDirectory(path).sorted()
    }

    public func read(_ path: String) throws(SystemError) -> [UInt8] {
        let descriptor = try FileDescriptor.open(path)
        defer { descriptor.close() }
        var bytes: [UInt8] = []
        while bytes.count < Self.readLimit, let chunk = try descriptor.read(upTo: 4_096, path: path), !chunk.isEmpty {
            bytes += chunk
        }
        return bytes
    }

    public func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        // O_CREAT: configfs attributes exist already; a stand-in folder's do not.
        let descriptor = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
        defer { descriptor.close() }
        try descriptor.writeAll(bytes, path: path)
    }

    public func makeDirectory(_ path: String) throws(SystemError) { try FileSystem.makeDirectory(path) }

    public func removeDirectory(_ path: String) throws(SystemError) { try FileSystem.removeDirectory(path) }

    public func makeSymbolicLink(_ path: String, to target: String) throws(SystemError) {
        try FileSystem.makeSymbolicLink(path, to: target)
    }

    public func remove(_ path: String) throws(SystemError) { try FileSystem.unlink(path) }

    public func mountConfigfs(at path: String) throws(SystemError) {
        try FileSystem.mountVirtual(type: "configfs", at: path)
    }
}
