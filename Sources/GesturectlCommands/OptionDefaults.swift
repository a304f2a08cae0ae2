import CommandKit
import GestureModel
import GestureRecording
import HIDOutput

/// How option declarations write a default kept as a named constant
/// elsewhere (``GestureEngine/PlayRequest/defaultLeadIn``, …): the help,
/// the manual page and the value the command reads all come from that one
/// constant, through the declaration.
enum OptionDefault {
    /// A duration as a user would type it: `100ms`, `1s`; zero is `0`.
    static func duration(_ value: Microseconds) -> String {
        value == .zero ? "0" : DurationText.format(microseconds: value.rawValue)
    }

    /// A number as people write it: `18`, `0.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The USB gadget's configfs name of `gadget` and `--to gadget`: `gesturectl`.
    static let gadgetName = GadgetSpecification.defaultName

    /// How long a recording waits after the last contact lifted: `record
    /// --sequential` and the create flow's `--idle-timeout`, 3 s.
    static let idleTimeout = Microseconds(3_000_000)

    /// The virtual screen of `--screen` for relative pointers: `1920x1080`.
    static let screen = "\(RecorderOptions.defaultVirtualScreenWidth)x\(RecorderOptions.defaultVirtualScreenHeight)"
}
