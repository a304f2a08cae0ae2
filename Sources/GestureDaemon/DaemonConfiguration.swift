import GestureModel
import OperatingSystem

/// What the daemon reads from its configuration file (JSON, every key
/// optional), e.g.:
///
/// ```json
/// {"group": "gesturectl", "devices": ["touchscreen", "touchpad"], "queue_limit": 64}
/// ```
///
/// - `group`: who may connect besides root (default `gesturectl`).
/// - `devices`: the virtual devices kept ready (default: touchscreen,
///   touchpad, mouse, tablet, keyboard; the keyboard is for `press`).
/// - `library`: the folder of named gestures (default: the system service's
///   `/var/lib/gesturectl/gestures`, or the user's library for a user instance).
/// - `queue_limit`: requests waiting per device before `busy` (default 64).
///
/// The daemon never writes this file.
public struct DaemonConfiguration: Hashable, Sendable {
    /// The kinds of virtual device that play gestures (`play`'s `as`).
    public static let playableKinds: [DeviceKind] = [.touchscreen, .touchpad, .mouse, .tablet]
    /// The kinds of virtual device the daemon can keep ready: the playable
    /// ones and the keyboard that `press` uses.
    public static let readyKinds: [DeviceKind] = playableKinds + [.keyboard]

    /// The group whose members may connect (root always may).
    public var group: String
    /// The devices kept ready, in the order created.
    public var devices: [DeviceKind]
    /// The library folder, when the file names one.
    public var library: String?
    /// Requests waiting per device before the daemon answers `busy`.
    public var queueLimit: Int

    /// The defaults.
    public init(
        group: String = "gesturectl", devices: [DeviceKind] = DaemonConfiguration.readyKinds, library: String? = nil,
        queueLimit: Int = 64
    ) {
        self.group = group
        self.devices = devices
        self.library = library
        self.queueLimit = queueLimit
    }

    /// Reads a configuration from the bytes of a file named `path`.
    /// - Throws: ``DaemonError`` (`bad-argument`) naming the file and the key.
    public static func parse(_ bytes: [UInt8], path: String) throws(DaemonError) -> DaemonConfiguration {
        let value: JSONValue
        do {
            value = try JSONLineParser.parse(bytes)
        } catch {
            throw DaemonError(.badArgument, "\(path): not JSON: \(error)")
        }
        guard case .object(let members, _) = value else { throw DaemonError(.badArgument, "\(path): must be a JSON object") }
        var configuration = DaemonConfiguration()
        for (key, member) in members {
            switch key {
            case "group":
                guard case .string(let group) = member, !group.isEmpty else {
                    throw DaemonError(.badArgument, "\(path): \"group\" must be a group name")
                }
                configuration.group = group
            case "devices":
                guard case .array(let items) = member else {
                    throw DaemonError(.badArgument, "\(path): \"devices\" must be a list such as [\"touchscreen\", \"touchpad\"]")
                }
                var kinds: [DeviceKind] = []
                for item in items {
                    guard case .string(let name) = item, let kind = DeviceKind(rawValue: name),
                        readyKinds.contains(kind)
                    else {
                        throw DaemonError(
                            .badArgument,
                            "\(path): \"devices\": \(item.jsonText) is not one of \(readyKinds.map(\.rawValue).joined(separator: ", "))")
                    }
                    if !kinds.contains(kind) { kinds.append(kind) }
                }
                configuration.devices = kinds
            case "library":
                guard case .string(let folder) = member, folder.hasPrefix("/") else {
                    throw DaemonError(.badArgument, "\(path): \"library\" must be an absolute folder path")
                }
                configuration.library = folder
            case "queue_limit":
                guard case .number(let text) = member, let limit = Int(text), (1...10_000).contains(limit) else {
                    throw DaemonError(.badArgument, "\(path): \"queue_limit\" must be a whole number from 1 to 10000")
                }
                configuration.queueLimit = limit
            default:
                throw DaemonError(
                    .badArgument, "\(path): unknown key \"\(DaemonLog.oneLine(key))\" (known: group, devices, library, queue_limit)")
            }
        }
        return configuration
    }
}
