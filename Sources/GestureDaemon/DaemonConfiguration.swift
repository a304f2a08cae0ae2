import GestureEngine
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
/// - `bindings`: custom actions, a list of ``TriggerBinding``s (default
///   none); the bindings saved over the socket (`bindings.json`) override them.
/// - `double_press_ms`, `long_press_ms`, `emergency_stop_ms`: the press
///   recogniser's timings (defaults 300, 800, 3000; see ``GestureEngine/PressRecognizer``).
/// - `grab`: trigger devices are grabbed (default false: a key on a shared
///   keyboard must not take the keyboard away).
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
    /// The custom actions the configuration defines.
    public var bindings: [TriggerBinding]
    /// The press recogniser's timings.
    public var pressTimings: PressTimings
    /// Whether trigger devices are grabbed.
    public var grab: Bool

    /// The defaults.
    public init(
        group: String = "gesturectl", devices: [DeviceKind] = DaemonConfiguration.readyKinds, library: String? = nil,
        queueLimit: Int = 64, bindings: [TriggerBinding] = [], pressTimings: PressTimings = PressTimings(), grab: Bool = false
    ) {
        self.group = group
        self.devices = devices
        self.library = library
        self.queueLimit = queueLimit
        self.bindings = bindings
        self.pressTimings = pressTimings
        self.grab = grab
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
            case "bindings":
                configuration.bindings = try TriggerBinding.parseList(member, what: "\(path): \"bindings\"")
            case "double_press_ms", "long_press_ms", "emergency_stop_ms":
                guard case .number(let text) = member, let milliseconds = Int(text), (1...600_000).contains(milliseconds) else {
                    throw DaemonError(.badArgument, "\(path): \"\(key)\" must be a whole number of milliseconds from 1 to 600000")
                }
                let time = Microseconds(Int64(milliseconds) * 1_000)
                switch key {
                case "double_press_ms": configuration.pressTimings.doubleInterval = time
                case "long_press_ms": configuration.pressTimings.longPress = time
                default: configuration.pressTimings.emergencyStop = time
                }
            case "grab":
                guard case .bool(let grab) = member else { throw DaemonError(.badArgument, "\(path): \"grab\" must be true or false") }
                configuration.grab = grab
            default:
                throw DaemonError(
                    .badArgument,
                    "\(path): unknown key \"\(DaemonLog.oneLine(key))\" (known: group, devices, library, queue_limit, bindings, double_press_ms, long_press_ms, emergency_stop_ms, grab)")
            }
        }
        if let problem = configuration.pressTimings.problem { throw DaemonError(.badArgument, "\(path): \(problem)") }
        return configuration
    }
}
