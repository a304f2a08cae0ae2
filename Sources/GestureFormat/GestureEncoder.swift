import GestureModel

/// Writes a gesture in the canonical layout: 2-space indentation, fixed key
/// order, one sample per line, axis objects on one line, `\n` line ends and
/// a final newline.
///
/// It appends bytes to one growing buffer, with no string built per sample.
package struct GestureEncoder {
    private(set) var output: [UInt8] = []
    /// Where the text goes piece by piece, when it is not held whole: handed
    /// `output` whenever it holds ``pieceBytes`` (and at the end), it
    /// empties it, or returns false to stop the writing.
    private let sink: ((inout [UInt8]) -> Bool)?
    private var stopped = false
    static let pieceBytes = 1 << 16

    /// Encodes `gesture`, into ``output`` or, with `sink`, piece by piece.
    init(_ gesture: Gesture, sink: ((inout [UInt8]) -> Bool)? = nil) {
        self.sink = sink
        // A sample line takes 30 to 50 bytes; reserving generously saves
        // copying a buffer of a hundred megabytes as it grows.
        output.reserveCapacity(sink == nil ? 1024 + gesture.sampleCount * 48 : Self.pieceBytes + 4096)
        write("{\n  \"format\": ")
        write(GestureFileFormat.version(for: gesture))
        write(",\n  \"name\": ")
        write(string: gesture.name)
        if let description = gesture.description {
            write(",\n  \"description\": ")
            write(string: description)
        }
        writeDevice(gesture.device)
        if let metadata = gesture.metadata { writeMetadata(metadata) }
        writeStrokes(gesture.strokes)
        if stopped { return }
        write("\n}\n")
        if let sink { stopped = !sink(&output) }
    }

    private mutating func writeDevice(_ device: DeviceGeometry) {
        write(",\n  \"device\": {\n    \"kind\": ")
        write(string: device.kind.rawValue)
        writeAxis("x", device.x)
        writeAxis("y", device.y)
        if let pressure = device.pressure { writeAxis("pressure", pressure) }
        if let size = device.size { writeAxis("size", size) }
        write(",\n    \"width_mm\": ")
        write(text: Millimetres.text(device.widthMM))
        write(",\n    \"height_mm\": ")
        write(text: Millimetres.text(device.heightMM))
        write(",\n    \"slots\": ")
        write(device.slots)
        write("\n  }")
    }

    private mutating func writeAxis(_ name: String, _ axis: AxisRange) {
        write(text: ",\n    \"\(name)\": { \"min\": ")
        write(axis.minimum)
        write(", \"max\": ")
        write(axis.maximum)
        write(", \"resolution\": ")
        write(axis.resolution)
        write(" }")
    }

    private mutating func writeMetadata(_ metadata: RecordingMetadata) {
        write(",\n  \"metadata\": {")
        for (key, value) in [
            ("recorded_at", metadata.recordedAt), ("tool", metadata.tool), ("device_name", metadata.deviceName),
            ("device_id", metadata.deviceID),
        ] {
            guard let value else { continue }
            write(text: "\n    \"\(key)\": ")
            write(string: value)
            write(",")
        }
        write("\n    \"dropped_events\": ")
        write(metadata.droppedEvents)
        write("\n  }")
    }

    private mutating func writeStrokes(_ strokes: [Stroke]) {
        write(",\n  \"strokes\": [")
        for (index, stroke) in strokes.enumerated() {
            write(index == 0 ? "\n    {\n      \"kind\": " : ",\n    {\n      \"kind\": ")
            write(string: stroke.kind.rawValue)
            // Written whenever present, so that a misplaced button shows
            // (and fails validation on reading) instead of vanishing.
            if let button = stroke.button {
                write(",\n      \"button\": ")
                write(string: button.rawValue)
            }
            if stroke.isEstimated { write(",\n      \"estimated\": true") }
            write(",\n      \"samples\": [")
            for (sampleIndex, sample) in stroke.samples.enumerated() {
                write(sampleIndex == 0 ? "\n        [" : ",\n        [")
                writeSample(sample)
                if let sink, output.count >= Self.pieceBytes {
                    guard sink(&output) else {
                        stopped = true
                        return
                    }
                }
            }
            write(stroke.samples.isEmpty ? "]\n    }" : "\n      ]\n    }")
        }
        write(strokes.isEmpty ? "]" : "\n  ]")
    }

    /// `time, x, y[, pressure | null[, size]]]` (the `[` is already written).
    private mutating func writeSample(_ sample: Sample) {
        write(sample.time.rawValue)
        writeSeparator()
        write(Int64(sample.x))
        writeSeparator()
        write(Int64(sample.y))
        if sample.pressure != nil || sample.size != nil {
            writeSeparator()
            if let pressure = sample.pressure { write(Int64(pressure)) } else { write("null") }
            if let size = sample.size {
                writeSeparator()
                write(Int64(size))
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    // MARK: Pieces

    /// `, ` between sample columns.
    private mutating func writeSeparator() {
        output.append(UInt8(ascii: ","))
        output.append(UInt8(ascii: " "))
    }

    private mutating func write(text: String) {
        output.append(contentsOf: text.utf8)
    }

    /// Fixed text, appended straight from the binary's constant bytes.
    private mutating func write(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func write(_ value: Int) {
        write(Int64(value))
    }

    /// Decimal digits, without building a string: written backwards into
    /// a fixed 20-byte scratch space (enough for any Int64), then appended.
    private mutating func write(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude  // safe for Int64.min
        if magnitude < 10 {
            output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[start...]))
        }
    }

    private mutating func write(string: String) {
        output.append(UInt8(ascii: "\""))
        Self.appendEscaped(string, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// `text` with `"`, `\` and control characters escaped (`\n`, `\r`, `\t`,
    /// otherwise `\u00XX`); everything else, non-ASCII included, as UTF-8.
    package static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
    }

    /// `text` escaped as inside a JSON string (for quoting it in messages).
    package static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendEscaped(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
