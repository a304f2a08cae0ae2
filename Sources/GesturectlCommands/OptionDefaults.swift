import CommandKit
import GestureModel
import GestureRecording
import HIDOutput

/// Defaults that have no home below the commands, each one named constant
/// that the option's declaration (and so the help and the manual page) and
/// the command read. Defaults that belong to a lower layer live there
/// (``GestureEngine/PlayRequest/defaultLeadIn``, …) and are read the same way.
enum OptionDefault {
    /// The USB gadget's configfs name of `gadget` and `--to gadget`: `gesturectl`.
    static let gadgetName = GadgetSpecification.defaultName

    /// How long a recording waits after the last contact lifted: `record
    /// --sequential` and the create flow's `--idle-timeout` (the daemon's too).
    static let idleTimeout = RecordingSessionOptions.defaultIdleTimeout

    /// The virtual screen of `--screen` for relative pointers: `1920x1080`.
    static let screen = "\(RecorderOptions.defaultVirtualScreenWidth)x\(RecorderOptions.defaultVirtualScreenHeight)"
}

extension TypedOption where Value == Microseconds {
    /// A duration option with a default, read as ``GestureModel/Microseconds``;
    /// the help shows the default as a user would type it (`100ms`; zero as `0`).
    static func duration(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .duration,
        default value: Microseconds
    ) -> Self {
        TypedOption<Int64>.duration(name, short: short, valueName: valueName, help: help, type: type, default: value.rawValue)
            .map { Microseconds($0) }
    }
}

extension TypedOption where Value == Microseconds? {
    /// A duration option without a default, read as ``GestureModel/Microseconds``; `nil` when absent.
    static func duration(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, type: ValueType = .duration
    ) -> Self {
        TypedOption<Int64?>.duration(name, short: short, valueName: valueName, help: help, type: type).map { $0.map { Microseconds($0) } }
    }
}
