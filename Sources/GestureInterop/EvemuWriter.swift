import GestureModel
import InputSystem

/// Writes evemu text: device descriptions as `evemu-describe` prints them
/// (for `evemu-device`) and event streams as `evemu-record` prints them (for
/// `evemu-play`), layout for layout (evemu 2.7, file format 1.3).
///
/// Left out, because they describe the machine that recorded rather than the
/// device: the `# Kernel:` and `# DMI:` comment lines. evemu reads neither.
public enum EvemuWriter {
    /// The evemu file format version written, as in the `# EVEMU 1.3` header.
    public static let formatVersion = "1.3"

    /// The banner `evemu-record` prints between the description and the
    /// first event.
    public static let eventsBanner = """
        ################################
        #      Waiting for events      #
        ################################

        """

    /// A device description as `evemu-describe` writes it: the header, the
    /// readable `#` summary, then the `N:`, `I:`, `P:`, `B:` and `A:` lines
    /// that `evemu-device` reads. Every line ends with a newline.
    ///
    /// `EV_SYN` is always written as `B: 00 0b …` (as evemu does, whatever
    /// the device). Types, codes and properties outside libevdev's tables are
    /// left out, and line breaks in the name become spaces, since evemu
    /// could not read them back.
    public static func description(_ description: InputDeviceDescription) -> String {
        var text = "# EVEMU \(formatVersion)\n"
        text += summary(of: description)
        text += "N: \(singleLine(description.name))\n"
        let identity = [description.bus, description.vendor, description.product, description.version]
        text += "I: " + identity.map { CFormatting.hex(UInt64($0), width: 4) }.joined(separator: " ") + "\n"
        text += propertyLines(description)
        text += maskLines(description)
        for code in description.writableCodes(of: .absolute) {
            let axis = description.writableAxis(code)
            text += "A: \(CFormatting.hex(UInt64(code.rawValue), width: 2)) \(axis.minimum) \(axis.maximum) "
            text += "\(axis.fuzz) \(axis.flat) \(axis.resolution)\n"
        }
        return text
    }

    /// The frames as `evemu-record` writes events: one `E:` line per event,
    /// `E: 0.000001 0003 0035 1234\t# EV_ABS / ABS_MT_POSITION_X    1234`,
    /// with the `# ------------ SYN_REPORT (0) ---------- +16ms` comment on
    /// frame ends.
    ///
    /// Times are seconds and microseconds from the first frame plus one
    /// microsecond, as `evemu-record` writes them: `evemu-play` treats a
    /// time of exactly zero as "no previous event" and would skip the first
    /// pause. Every event is written with its frame's time (the kernel also
    /// stamps a whole frame with one time); a frame earlier than the first
    /// is written at the first frame's time.
    public static func events(_ frames: [InputFrame]) -> String {
        var writer = EventWriter()
        var text = ""
        for frame in frames { writer.append(frame, to: &text) }
        return text
    }

    /// Writes frames as ``events(_:)`` does, one at a time, so that a long
    /// recording can be written in pieces as its frames are made; the
    /// first frame appended sets the time origin.
    public struct EventWriter: FrameTextWriter, Sendable {
        private var origin = TimeOrigin()
        private var lastMilliseconds: Int64 = 0
        /// `TTTT CCCC ` and `# EV_X / NAME…  ` for each type and code seen:
        /// the parts of a line that do not change, formatted once.
        private var parts = LineParts()
        /// The frame's `E: S.UUUUUU ` (kept to reuse its storage).
        private var stamp: [UInt8] = []

        /// A writer before its first frame.
        public init() {}

        /// Appends `frame`'s `E:` lines to `bytes` as UTF-8: the same text,
        /// without a String in between (an hour's export is a gigabyte).
        public mutating func append(_ frame: InputFrame, to bytes: inout [UInt8]) {
            let time = origin.elapsed(frame.time, ceiling: Int64.max - 1) + 1
            stamp.removeAll(keepingCapacity: true)
            stamp.append("E: ")
            stamp.appendDecimal(time / 1_000_000)
            stamp.append(0x2E)
            stamp.appendDecimal(time % 1_000_000, width: 6, zeroPadded: true)
            stamp.append(0x20)
            for event in frame.events {
                bytes.append(contentsOf: stamp)
                if event.type == .synchronization {
                    bytes.append(
                        "\(CFormatting.hex(UInt64(event.type.rawValue), width: 4)) \(CFormatting.hex(UInt64(event.code.rawValue), width: 4)) ")
                    bytes.appendDecimal(Int64(event.value), width: 4, zeroPadded: true)
                    bytes.append(0x09)
                    bytes.append(EvemuWriter.comment(for: event, milliseconds: time / 1000, lastMilliseconds: &lastMilliseconds))
                } else {
                    let part = parts[event] ?? {
                        let made = (
                            fields: Array(
                                ("\(CFormatting.hex(UInt64(event.type.rawValue), width: 4)) "
                                    + "\(CFormatting.hex(UInt64(event.code.rawValue), width: 4)) ").utf8),
                            comment: Array(
                                ("# \(CFormatting.typeName(event.type)) / "
                                    + "\(CFormatting.rightPad(CFormatting.codeName(event.code, type: event.type), width: 20)) ").utf8)
                        )
                        parts[event] = made
                        return made
                    }()
                    bytes.append(contentsOf: part.fields)
                    bytes.appendDecimal(Int64(event.value), width: 4, zeroPadded: true)
                    bytes.append(0x09)
                    bytes.append(contentsOf: part.comment)
                    bytes.appendDecimal(Int64(event.value))
                }
                bytes.append(0x0A)
            }
        }
    }

    /// A whole recording as `evemu-record` writes it: the description, the
    /// "Waiting for events" banner, the events. `evemu-play FILE` creates
    /// the device from it and replays the events.
    public static func recording(description: InputDeviceDescription, frames: [InputFrame]) -> String {
        Self.description(description) + eventsBanner + events(frames)
    }

    // MARK: Description parts

    /// The `#` lines evemu prints before `N:` (its `write_desc`).
    private static func summary(of description: InputDeviceDescription) -> String {
        var text = "# Input device name: \"\(singleLine(description.name))\"\n"
        let identity = [description.bus, description.vendor, description.product, description.version]
            .map { CFormatting.alternateHex(UInt64($0), width: 4) }
        text += "# Input device ID: bus \(identity[0]) vendor \(identity[1]) product \(identity[2]) "
        text += "version \(identity[3])\n"
        if let size = description.sizeInMillimetres, size.width != 0, size.height != 0 {
            text += "# Size in mm: \(size.width)x\(size.height)\n"
        }
        text += "# Supported events:\n"
        // libevdev reports every EV_SYN code up to SYN_MAX for any device.
        if let maximum = KernelTables.maximumCode(of: .synchronization) {
            text += "#   Event type 0 (EV_SYN)\n"
            for raw in 0...maximum.rawValue {
                let code = EventCode(rawValue: raw)
                text += "#     Event code \(raw) (\(CFormatting.codeName(code, type: .synchronization)))\n"
            }
        }
        for type in description.writableTypes {
            text += "#   Event type \(type.rawValue) (\(CFormatting.typeName(type)))\n"
            for code in description.writableCodes(of: type) {
                text += "#     Event code \(code.rawValue) (\(CFormatting.codeName(code, type: type)))\n"
                if type == .absolute {
                    let axis = description.writableAxis(code)
                    // The current value is not part of a description; evemu
                    // ignores these comment lines when reading.
                    text += "#       Value   \(CFormatting.padded(0, width: 6))\n"
                    text += "#       Min     \(CFormatting.padded(Int64(axis.minimum), width: 6))\n"
                    text += "#       Max     \(CFormatting.padded(Int64(axis.maximum), width: 6))\n"
                    text += "#       Fuzz    \(CFormatting.padded(Int64(axis.fuzz), width: 6))\n"
                    text += "#       Flat    \(CFormatting.padded(Int64(axis.flat), width: 6))\n"
                    text += "#       Resolution \(CFormatting.padded(Int64(axis.resolution), width: 3))\n"
                } else if type.rawValue == 0x11 || type.rawValue == 0x05 {
                    // EV_LED and EV_SW show their state.
                    text += "#        State 0\n"
                }
            }
        }
        text += "# Properties:\n"
        for property in description.writableProperties {
            text += "#   Property  type \(property.rawValue) (\(property.name ?? CFormatting.nullName))\n"
        }
        return text
    }

    /// `P:` lines: the property bitmask, eight bytes a line.
    private static func propertyLines(_ description: InputDeviceDescription) -> String {
        let byteCount = (Int(KernelTables.propertyCount) + 7) / 8
        var mask = [UInt8](repeating: 0, count: max(8, (byteCount + 7) / 8 * 8))
        for property in description.writableProperties {
            mask[Int(property.rawValue) / 8] |= 1 << (property.rawValue % 8)
        }
        var text = ""
        for start in stride(from: 0, to: byteCount, by: 8) {
            text += "P:" + byteList(mask, from: start) + "\n"
        }
        return text
    }

    /// `B:` lines: a fixed `EV_SYN` line, then each type's code bitmask in
    /// rows of eight bytes, every type libevdev knows (empty ones too).
    private static func maskLines(_ description: InputDeviceDescription) -> String {
        var text = "B: 00 0b 00 00 00 00 00 00 00\n"
        for (type, maximum) in KernelTables.typesWithCodes where type != .synchronization {
            let byteCount = (Int(maximum.rawValue) + 1 + 7) / 8
            var mask = [UInt8](repeating: 0, count: (byteCount + 7) / 8 * 8)
            for code in description.writableCodes(of: type) {
                mask[Int(code.rawValue) / 8] |= 1 << (code.rawValue % 8)
            }
            for start in stride(from: 0, to: byteCount, by: 8) {
                text += "B: \(CFormatting.hex(UInt64(type.rawValue), width: 2))" + byteList(mask, from: start) + "\n"
            }
        }
        return text
    }

    /// ` 0a 00 …`: eight bytes from `start`, each with a leading space.
    private static func byteList(_ mask: [UInt8], from start: Int) -> String {
        (start..<start + 8).map { " " + CFormatting.hex(UInt64(mask[$0]), width: 2) }.joined()
    }

    // MARK: Event parts

    /// The `# …` comment evemu writes after an event (its `write_event_desc`).
    fileprivate static func comment(for event: InputEvent, milliseconds: Int64, lastMilliseconds: inout Int64) -> String {
        if event.type == .synchronization {
            let name = CFormatting.codeName(event.code, type: .synchronization)
            if event.code == .synchronizationMultitouchReport {
                return "# ++++++++++++ \(name) (\(event.value)) ++++++++++"
            }
            let delta = milliseconds - lastMilliseconds
            lastMilliseconds = milliseconds
            return "# ------------ \(name) (\(event.value)) ---------- \(CFormatting.signed(delta))ms"
        }
        let codeName = CFormatting.rightPad(CFormatting.codeName(event.code, type: event.type), width: 20)
        return "# \(CFormatting.typeName(event.type)) / \(codeName) \(event.value)"
    }

    /// The name with line breaks and NULs replaced, so that it stays one line.
    private static func singleLine(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { ["\n", "\r", "\0"].contains($0) ? " " : $0 }))
    }
}
