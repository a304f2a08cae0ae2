import CommandKit
import GestureEngine

/// `--to` and `--gadget` of `play`, `fingertips` and `press`: how the
/// virtual device is made.
enum DeviceOutput {
    /// The words `--to` takes.
    enum Word: String, CaseIterable, Sendable {
        /// evdev through /dev/uinput.
        case uinput
        /// A HID device through /dev/uhid.
        case uhid
        /// The USB gadget's HID functions.
        case gadget
    }

    /// `--to` of `play` and `fingertips`.
    static let to: TypedOption<Word> = .choice(
        "to", valueName: "output",
        help: "How the device is made: uinput (evdev, the default), uhid (a HID device the kernel's HID drivers drive), gadget (the USB gadget 'gesturectl gadget up' made: the host it is plugged into).",
        default: Word(output: .uinput))

    /// `--gadget NAME`, with `--to gadget`.
    static let gadget: TypedOption<String> = .string(
        "gadget", valueName: "name", help: "With --to gadget: the gadget's configfs name.", default: OptionDefault.gadgetName)

    /// The output `to` (and `gadget`) ask for; `--gadget` without `--to
    /// gadget` is refused.
    static func output(_ values: ParsedValues, to: TypedOption<Word>, gadget: TypedOption<String>) throws -> PlayOutput {
        let word = values[to]
        if values.isGiven(gadget) && word != .gadget {
            throw CommandFailure.usage("--gadget names the gadget of --to gadget; add --to gadget")
        }
        switch word {
        case .uinput: return .uinput
        case .uhid: return .uhid
        // Without --gadget, the engine's own default gadget.
        case .gadget: return .gadget(name: values.isGiven(gadget) ? values[gadget] : nil)
        }
    }
}

extension DeviceOutput.Word {
    /// The word of an output (the gadget's name left out).
    init(output: PlayOutput) {
        switch output {
        case .uinput: self = .uinput
        case .uhid: self = .uhid
        case .gadget: self = .gadget
        }
    }
}
