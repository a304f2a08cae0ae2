import GestureModel
import InputSystem

/// Writes a `libinput record`-style YAML file (version 1, one device) that
/// `libinput replay` replays: the device's `evdev:` description, its `udev:`
/// properties and its events, one `- evdev:` entry per frame.
///
/// The layout is `libinput record`'s, line for line where it matters to
/// readers; the `libinput:` and `system:` blocks say `unknown` because no
/// libinput recorded the file, and no `hid:` report descriptor or `quirks:`
/// are written (replay does not need them).
public enum LibinputRecordWriter {
    /// The file version written.
    public static let fileVersion = 1

    /// The whole document.
    ///
    /// - Parameters:
    ///   - description: The device the events are for.
    ///   - frames: The frames; times are written from the first frame's time
    ///     (which becomes 0, as `libinput record` does). A frame earlier than
    ///     the first is written at 0; a frame without events is left out.
    ///   - node: The `node:` value; replay does not use it.
    ///   - udevProperties: The `udev: properties:` entries (`KEY=VALUE`);
    ///     `nil` for the `ID_INPUT*` properties udev's input_id would give
    ///     the device (``udevProperties(for:)``). `libinput replay` compares
    ///     them with the properties of the device it creates and warns on a
    ///     difference.
    public static func document(
        description: InputDeviceDescription, frames: [InputFrame], node: String = "unknown",
        udevProperties: [String]? = nil
    ) -> String {
        var text = header(description: description, node: node, udevProperties: udevProperties)
        var writer = EventWriter()
        for frame in frames { writer.append(frame, to: &text) }
        return text
    }

    /// The document up to and including its `  events:` line; the events
    /// follow, written by an ``EventWriter`` (parameters as ``document(description:frames:node:udevProperties:)``).
    public static func header(
        description: InputDeviceDescription, node: String = "unknown", udevProperties: [String]? = nil
    ) -> String {
        var text = """
            # libinput record
            # Written by gesturectl, not by libinput; replay it with: libinput replay FILE
            version: \(fileVersion)
            ndevices: 1
            libinput:
              version: "unknown"
              git: "unknown"
            system:
              kernel: "unknown"
              dmi: "unknown"
            devices:
            - node: \(plainOrQuoted(node))
              evdev:

            """
        text += evdevBlock(description)
        text += "  udev:\n    properties:\n"
        for property in udevProperties ?? Self.udevProperties(for: description) {
            text += "    - \(plainOrQuoted(property))\n"
        }
        text += "  events:\n"
        return text
    }

    /// The `udev: properties:` udev's input_id builtin would set for a device
    /// with this description: `ID_INPUT=1`, the class (`ID_INPUT_TOUCHSCREEN`,
    /// `_TOUCHPAD`, `_TABLET`, `_MOUSE`, `_KEY`, `_KEYBOARD`) and, with
    /// resolution on both axes, `ID_INPUT_WIDTH_MM` / `ID_INPUT_HEIGHT_MM`.
    public static func udevProperties(for description: InputDeviceDescription) -> [String] {
        let keys = Set(description.writableCodes(of: .key).map(\.rawValue))
        let axes = Set(description.writableCodes(of: .absolute))
        let relative = Set(description.writableCodes(of: .relative))
        let direct = description.properties.contains(.direct)
        let hasPosition =
            (axes.contains(.absoluteX) && axes.contains(.absoluteY))
            || (axes.contains(.multitouchPositionX) && axes.contains(.multitouchPositionY))
        var properties = ["ID_INPUT=1"]
        if hasPosition {
            if keys.contains(EventCode.buttonToolPen.rawValue) || keys.contains(EventCode.buttonStylus.rawValue) {
                properties.append("ID_INPUT_TABLET=1")
            } else if keys.contains(EventCode.buttonToolFinger.rawValue) && !direct {
                properties.append("ID_INPUT_TOUCHPAD=1")
            } else if keys.contains(EventCode.buttonTouch.rawValue) || direct {
                properties.append("ID_INPUT_TOUCHSCREEN=1")
            } else if keys.contains(EventCode.buttonLeft.rawValue) {
                properties.append("ID_INPUT_MOUSE=1")
            }
        }
        if relative.contains(.relativeX) && relative.contains(.relativeY) && keys.contains(EventCode.buttonLeft.rawValue) {
            properties.append("ID_INPUT_MOUSE=1")
        }
        // Keys below BTN_MISC (0x100) are keyboard keys; KEY_ESC … KEY_D
        // (1 … 32) all present make a full keyboard.
        if keys.contains(where: { $0 >= 1 && $0 < 0x100 }) {
            properties.append("ID_INPUT_KEY=1")
            if (1...32).allSatisfy({ keys.contains($0) }) { properties.append("ID_INPUT_KEYBOARD=1") }
        }
        if let size = description.sizeInMillimetres {
            properties.append("ID_INPUT_WIDTH_MM=\(size.width)")
            properties.append("ID_INPUT_HEIGHT_MM=\(size.height)")
        }
        return properties
    }

    // MARK: Parts

    /// The lines inside `evdev:` (indented four spaces).
    private static func evdevBlock(_ description: InputDeviceDescription) -> String {
        let indent = "    "
        var text = ""
        func line(_ content: String) { text += indent + content + "\n" }
        line("# Name: \(singleLine(description.name))")
        let busNames: [UInt16: String] = [0x03: " (usb) ", 0x05: " (bluetooth) ", 0x18: " (i2c) ", 0x1c: " (spi) ", 0x1d: " (rmi) "]
        line(
            "# ID: bus 0x\(CFormatting.hex(UInt64(description.bus), width: 4))\(busNames[description.bus] ?? " ")"
                + "vendor 0x\(CFormatting.hex(UInt64(description.vendor), width: 4)) "
                + "product 0x\(CFormatting.hex(UInt64(description.product), width: 4)) "
                + "version 0x\(CFormatting.hex(UInt64(description.version), width: 4))")
        let axes = description.writableCodes(of: .absolute)
        if axes.contains(.absoluteX) && axes.contains(.absoluteY) {
            if let size = description.sizeInMillimetres {
                line("# Size in mm: \(size.width)x\(size.height)")
            } else {
                line("# Size in mm: unknown, missing resolution")
            }
        }
        line("# Supported Events:")
        line("# Event type 0 (EV_SYN)")
        for type in description.writableTypes {
            line("# Event type \(type.rawValue) (\(CFormatting.typeName(type)))")
            for code in description.writableCodes(of: type) {
                line("#   Event code \(code.rawValue) (\(CFormatting.codeName(code, type: type)))")
                if type == .absolute {
                    let axis = description.writableAxis(code)
                    line("#       Value      \(CFormatting.padded(0, width: 6))")
                    line("#       Min        \(CFormatting.padded(Int64(axis.minimum), width: 6))")
                    line("#       Max        \(CFormatting.padded(Int64(axis.maximum), width: 6))")
                    line("#       Fuzz       \(CFormatting.padded(Int64(axis.fuzz), width: 6))")
                    line("#       Flat       \(CFormatting.padded(Int64(axis.flat), width: 6))")
                    line("#       Resolution \(CFormatting.padded(Int64(axis.resolution), width: 6))")
                } else if type.rawValue == 0x11 || type.rawValue == 0x05 {
                    line("#       State 0")
                }
            }
        }
        line("# Properties:")
        for property in description.writableProperties {
            line("#    Property \(property.rawValue) (\(property.name ?? CFormatting.nullName))")
        }
        line("name: \(quoted(description.name))")
        line("id: [\(description.bus), \(description.vendor), \(description.product), \(description.version)]")
        line("codes:")
        // libevdev reports every EV_SYN code up to SYN_MAX for any device.
        let synchronizationMaximum = KernelTables.maximumCode(of: .synchronization)?.rawValue ?? 0
        let synchronizationCodes = (0...synchronizationMaximum).map(String.init).joined(separator: ", ")
        line("  0: [\(synchronizationCodes)] # EV_SYN")
        for type in description.writableTypes {
            let list = description.writableCodes(of: type).map { String($0.rawValue) }.joined(separator: ", ")
            line("  \(type.rawValue): [\(list)] # \(CFormatting.typeName(type))")
        }
        if !axes.isEmpty {
            line("absinfo:")
            for code in axes {
                let axis = description.writableAxis(code)
                line(
                    "  \(code.rawValue): [\(axis.minimum), \(axis.maximum), \(axis.fuzz), \(axis.flat), \(axis.resolution)]")
            }
        }
        line("properties: [\(description.writableProperties.map { String($0.rawValue) }.joined(separator: ", "))]")
        return text
    }

    /// Writes the `events:` entries (`  - evdev:` per frame, then its
    /// events) one frame at a time, so that a long recording can be written
    /// in pieces as its frames are made. The first frame appended sets the
    /// time origin (0); a frame earlier than it is written at 0, a frame
    /// without events is left out.
    public struct EventWriter: FrameTextWriter, Sendable {
        private var origin = TimeOrigin()
        private var lastTime: Int64 = 0
        /// `TTT, CCC, ` and `] # EV_X / NAME…  ` for each type and code
        /// seen: the parts of a line that do not change, formatted once.
        private var parts = LineParts()
        /// The frame's `    - [SSS, UUUUUU, ` (kept to reuse its storage).
        private var stamp: [UInt8] = []

        /// A writer before its first frame.
        public init() {}

        /// Appends `frame`'s entry to `bytes` as UTF-8: the same text,
        /// without a String in between (an hour's export is a gigabyte).
        public mutating func append(_ frame: InputFrame, to bytes: inout [UInt8]) {
            let time = origin.elapsed(frame.time, ceiling: Int64.max)
            guard !frame.events.isEmpty else { return }
            bytes.append("  - evdev:\n")
            stamp.removeAll(keepingCapacity: true)
            stamp.append("    - [")
            stamp.appendDecimal(time / 1_000_000, width: 3)
            stamp.append(", ")
            stamp.appendDecimal(time % 1_000_000, width: 6)
            stamp.append(", ")
            for event in frame.events {
                bytes.append(contentsOf: stamp)
                if event.type == .synchronization {
                    bytes.appendDecimal(Int64(event.type.rawValue), width: 3)
                    bytes.append(", ")
                    bytes.appendDecimal(Int64(event.code.rawValue), width: 3)
                    bytes.append(", ")
                    bytes.appendDecimal(Int64(event.value), width: 7)
                    bytes.append("] # ")
                    bytes.append(LibinputRecordWriter.comment(for: event, time: time, lastTime: &lastTime))
                } else {
                    let part = parts[event] ?? {
                        let made = (
                            fields: Array(
                                ("\(CFormatting.padded(Int64(event.type.rawValue), width: 3)), "
                                    + "\(CFormatting.padded(Int64(event.code.rawValue), width: 3)), ").utf8),
                            comment: Array(
                                ("] # \(CFormatting.typeName(event.type)) / "
                                    + "\(CFormatting.rightPad(CFormatting.codeName(event.code, type: event.type), width: 20)) ").utf8)
                        )
                        parts[event] = made
                        return made
                    }()
                    bytes.append(contentsOf: part.fields)
                    bytes.appendDecimal(Int64(event.value), width: 7)
                    bytes.append(contentsOf: part.comment)
                    // The comment's value, `%6d`: the field's `%7d` less a space when there is one.
                    bytes.appendDecimal(Int64(event.value), width: 6)
                }
                bytes.append(0x0A)
            }
        }
    }

    /// The comment `libinput record` writes after an event.
    fileprivate static func comment(for event: InputEvent, time: Int64, lastTime: inout Int64) -> String {
        if event.type == .synchronization {
            let name = CFormatting.codeName(event.code, type: .synchronization)
            if event.code == .synchronizationMultitouchReport {
                return "++++++++++++ \(name) (\(event.value)) ++++++++++"
            }
            let delta = (time &- lastTime) / 1000
            lastTime = time
            return "------------ \(name) (\(event.value)) ---------- \(CFormatting.signed(delta))ms"
        }
        let codeName = CFormatting.rightPad(CFormatting.codeName(event.code, type: event.type), width: 20)
        return "\(CFormatting.typeName(event.type)) / \(codeName) \(CFormatting.padded(Int64(event.value), width: 6))"
    }

    // MARK: Text

    /// A double-quoted YAML scalar: `\` and `"` escaped, control characters
    /// as `\xNN`, so that any name reads back unchanged.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                result += "\\x" + CFormatting.hex(UInt64(scalar.value), width: 2)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A plain scalar when it is safe to write one, otherwise ``quoted(_:)``.
    private static func plainOrQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7f && !"#:\"'[]{},&*!|>%@`\\".unicodeScalars.contains(scalar)
        }
        return safe && !text.isEmpty && !text.hasPrefix("-") ? text : quoted(text)
    }

    private static func singleLine(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : $0 }))
    }
}
