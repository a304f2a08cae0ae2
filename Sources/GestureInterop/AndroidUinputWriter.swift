import GestureModel
import InputSystem

/// Writes the command file that Android's `uinput` shell command reads
/// (AOSP `frameworks/base/cmds/uinput`, README "JSON-like format"):
/// `adb shell uinput - < file.json`.
///
/// One command object a line, each strictly valid JSON (decimal numbers,
/// no comments), in the layout every Android version's reader takes:
///
/// 1. `register`: the device (`id` 1, `name`, `vid`, `pid`, `bus` `"usb"`,
///    `configuration` with integer `UI_SET_*` types — `UI_SET_EVBIT`,
///    the code bits and `UI_SET_PROPBIT`, so that `INPUT_PROP_DIRECT`
///    makes Android see a touchscreen —, `ff_effects_max` 0 and
///    `abs_info` for every axis);
/// 2. a `delay` of ``registrationDelayMilliseconds``, which the README asks
///    for so that Android has set the device up before the first event;
/// 3. per frame an `inject` of its events (type, code, value triples, the
///    `SYN_REPORT` included), with a `delay` in whole milliseconds before
///    it: the time since the previous frame, rounded so that the delays
///    add up to the frames' own times (a delay of 0 is left out: Android
///    refuses it).
public enum AndroidUinputWriter {
    /// The `id` of the one device a file registers.
    public static let deviceID = 1
    /// The pause between registering and the first event.
    public static let registrationDelayMilliseconds: Int64 = 500
    /// The `bus` written: Android's reader takes only `"usb"` and
    /// `"bluetooth"`, so a virtual device is registered as USB.
    public static let bus = "usb"

    /// `UI_SET_*` ioctl numbers (the `type` of a `configuration` entry),
    /// by the event type whose codes they enable.
    static let setBitRequests: [UInt16: Int] = [
        0x01: 101, 0x02: 102, 0x03: 103, 0x04: 104, 0x11: 105, 0x12: 106, 0x15: 107, 0x05: 109,
    ]
    /// `UI_SET_EVBIT`.
    static let setEventBit = 100
    /// `UI_SET_PROPBIT`.
    static let setPropertyBit = 110

    /// The `register` command and the delay after it: what goes before the
    /// events.
    public static func header(description: InputDeviceDescription) -> String {
        var text = "{\"id\": \(deviceID), \"command\": \"register\", \"name\": \(JSONInput.quoted(description.name)), "
        text += "\"vid\": \(description.vendor), \"pid\": \(description.product), \"bus\": \"\(bus)\",\n"
        text += " \"configuration\": [\n"
        var entries: [String] = []
        let types = description.writableTypes
        entries.append("  {\"type\": \(setEventBit), \"data\": [\(types.map { String($0.rawValue) }.joined(separator: ", "))]}")
        for type in types {
            guard let request = setBitRequests[type.rawValue] else { continue }
            let codes = description.writableCodes(of: type).map { String($0.rawValue) }.joined(separator: ", ")
            entries.append("  {\"type\": \(request), \"data\": [\(codes)]}")
        }
        let properties = description.writableProperties
        if !properties.isEmpty {
            entries.append(
                "  {\"type\": \(setPropertyBit), \"data\": [\(properties.map { String($0.rawValue) }.joined(separator: ", "))]}")
        }
        text += entries.joined(separator: ",\n") + "\n ],\n"
        text += " \"ff_effects_max\": 0,\n"
        let axes = description.writableCodes(of: .absolute)
        text += " \"abs_info\": ["
        text += axes.map { code in
            let axis = description.writableAxis(code)
            return "\n  {\"code\": \(code.rawValue), \"info\": {\"value\": 0, \"minimum\": \(axis.minimum), "
                + "\"maximum\": \(axis.maximum), \"fuzz\": \(axis.fuzz), \"flat\": \(axis.flat), \"resolution\": \(axis.resolution)}}"
        }.joined(separator: ",")
        text += axes.isEmpty ? "]}\n" : "\n ]}\n"
        text += delay(registrationDelayMilliseconds)
        return text
    }

    /// A `delay` command line.
    static func delay(_ milliseconds: Int64) -> String {
        "{\"id\": \(deviceID), \"command\": \"delay\", \"duration\": \(milliseconds)}\n"
    }

    /// The whole file for `frames` at once (tests, small files); export
    /// writes frame by frame with ``EventWriter``.
    public static func document(description: InputDeviceDescription, frames: [InputFrame]) -> String {
        var text = header(description: description)
        var writer = EventWriter()
        for frame in frames { writer.append(frame, to: &text) }
        return text
    }

    /// Writes frames one at a time: a `delay` (when the frame is at least a
    /// millisecond after the one before) and an `inject`. The first frame
    /// appended sets the time origin.
    public struct EventWriter: Sendable {
        private var origin = TimeOrigin()
        private var lastMilliseconds: Int64 = 0

        /// A writer before its first frame.
        public init() {}

        /// Appends `frame`'s commands to `text`.
        public mutating func append(_ frame: InputFrame, to text: inout String) {
            let elapsed = origin.elapsed(frame.time, ceiling: Int64.max - 1_000)
            // Rounded from the start, not per frame: the delays add up to
            // the frames' times, never drifting by a rounding a frame.
            let milliseconds = (elapsed + 500) / 1_000
            if milliseconds > lastMilliseconds {
                text += AndroidUinputWriter.delay(milliseconds - lastMilliseconds)
                lastMilliseconds = milliseconds
            }
            text += "{\"id\": \(AndroidUinputWriter.deviceID), \"command\": \"inject\", \"events\": ["
            var separator = ""
            for event in frame.events {
                text += separator
                text += String(event.type.rawValue)
                text += ", "
                text += String(event.code.rawValue)
                text += ", "
                text += String(event.value)
                separator = ", "
            }
            text += "]}\n"
        }
    }
}
