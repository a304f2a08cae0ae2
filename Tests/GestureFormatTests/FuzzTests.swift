import GestureFormat
import GestureModel
import Testing
import TestSupport

@Suite struct FuzzTests {
    /// Bytes that matter to JSON and to UTF-8, more likely to find a bug
    /// than uniformly random ones.
    static let interestingBytes: [UInt8] =
        Array("{}[],:\"\\-+.0123456789eEnultrfa \n\t/u".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]

    static let interestingChunks: [String] = [
        "99999999999999999999999", "-9223372036854775809", "9223372036854775807", "-9223372036854775808", "1e999",
        "-1e-999", "0.0000001", "1E+2", "null", "true", "\"\\ud800\"", "\"\\u0000\"", "\"é\"",
        String(repeating: "[", count: 40), String(repeating: "{\"a\":", count: 40), String(repeating: "]", count: 40),
        "\"format\": 2,", "\"format\": 1,", "\"nmae\": 1,", ",,", "[0, 1, 2, 3, 4, 5]", "[-1, 0, 0]",
    ]

    static func mutate(_ input: [UInt8], other: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0:  // byte flip
                if !bytes.isEmpty { bytes[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &random)) }
            case 1:  // byte replaced by an interesting one
                if !bytes.isEmpty { bytes[position] = interestingBytes.randomElement(using: &random) ?? 0 }
            case 2:  // insertion
                let count = Int.random(in: 1...4, using: &random)
                let inserted = (0..<count).map { _ in interestingBytes.randomElement(using: &random) ?? 0 }
                bytes.insert(contentsOf: inserted, at: position)
            case 3:  // deletion
                let count = min(Int.random(in: 1...16, using: &random), bytes.count - position)
                bytes.removeSubrange(position..<position + count)
            case 4:  // truncation
                bytes.removeSubrange(position..<bytes.count)
            case 5:  // duplicated chunk
                let count = min(Int.random(in: 1...64, using: &random), bytes.count - position)
                let chunk = Array(bytes[position..<position + count])
                let target = Int.random(in: 0...bytes.count, using: &random)
                bytes.insert(contentsOf: chunk, at: target)
            case 6:  // huge numbers, deep nesting and other troublemakers
                let chunk = Array((interestingChunks.randomElement(using: &random) ?? "").utf8)
                bytes.insert(contentsOf: chunk, at: position)
            case 7:  // a number replaced by a huge one
                if let digit = bytes[position...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                    bytes.insert(contentsOf: Array("9999999999999999999".utf8), at: digit)
                }
            default:  // splice from another valid file
                guard !other.isEmpty else { break }
                let start = Int.random(in: 0..<other.count, using: &random)
                let end = Int.random(in: start...other.count, using: &random)
                let cutEnd = Int.random(in: position...bytes.count, using: &random)
                bytes.replaceSubrange(position..<cutEnd, with: other[start..<end])
            }
        }
        return bytes
    }

    /// The lines of `bytes` a position can be on: split at "\n", the end
    /// of the file after a final line break being the start of one more.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
    }

    /// Checks that `error` is something a person can act on: a message
    /// that is not empty and prints as one clean line, and a position that
    /// exists in `text`, which every problem in the text has (bad JSON, a
    /// wrong key or value); only a problem of the whole file (too large,
    /// not a gesture, a newer format) may have none.
    static func expectClearRejection(
        _ error: GestureFormatError, text: [UInt8], _ context: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.source == "fuzz.json", "\(context())", sourceLocation: sourceLocation)
        #expect(error.message.contains { !$0.isWhitespace }, "\(context())", sourceLocation: sourceLocation)
        #expect(
            !error.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f },
            "\(context()): \(error.message.debugDescription)", sourceLocation: sourceLocation)
        switch error.kind {
        case .syntax, .invalid:
            #expect(error.line != nil, "\(context()): no line in \(error.description.debugDescription)", sourceLocation: sourceLocation)
        case .tooLarge, .notAGesture, .newerVersion, .changed: break
        }
        if let line = error.line {
            #expect(
                (1...lineCount(text)).contains(line), "\(context()): line \(line) of \(lineCount(text))",
                sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix("fuzz.json:\(line):"), "\(context())", sourceLocation: sourceLocation)
        } else {
            #expect(error.column == nil, "\(context())", sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix("fuzz.json: "), "\(context())", sourceLocation: sourceLocation)
        }
        if let column = error.column { #expect(column >= 1, "\(context())", sourceLocation: sourceLocation) }
    }

    /// `value` with the members of its top-level object named `key` left
    /// as parsing without building them leaves them (see ``JSONValue/parse(_:leavingUnbuilt:)``).
    static func unbuilt(_ value: JSONValue, _ key: String) -> JSONValue {
        guard case .object(let members, let span) = value else { return value }
        return .object(
            members.map { member in
                guard member.key == key else { return member }
                switch member.value {
                case .object(_, let inner): return (key, .object([], span: inner))
                case .array: return (key, .array([]))
                case .string: return (key, .string(""))
                case .number: return (key, .number(""))
                default: return member
                }
            }, span: span)
    }

    @Test("2,000 mutated request lines: left unbuilt, an inline gesture gives exactly the error a full parse gives, or the same value and span")
    func unbuiltGestureIsCheckedAsTheRest() throws {
        var random = SplitMix64(seed: 0x756e_6275_696c_74)
        let gesture = GestureFileFormat.encodeUTF8(Fixtures.example)
        let line = Array(#"{"id": 1, "op": "play", "gesture": "#.utf8) + gesture + Array(#", "wait": true}"#.utf8)
        var parsed = 0
        for _ in 0..<2_000 {
            let bytes = Self.mutate(line, other: gesture, using: &random)
            let full: Result<JSONValue, JSONSyntaxError> = Result { () throws(JSONSyntaxError) in try JSONValue.parse(bytes) }
            let shallow: Result<JSONValue, JSONSyntaxError> = Result { () throws(JSONSyntaxError) in
                try JSONValue.parse(bytes, leavingUnbuilt: ["gesture"])
            }
            switch (full, shallow) {
            case (.success(let value), .success(let left)):
                parsed += 1
                #expect(left == Self.unbuilt(value, "gesture"))
                if case .object(_, let span)? = value["gesture"], case .object(_, let leftSpan)? = left["gesture"] {
                    #expect(span == leftSpan)
                }
            case (.failure(let error), .failure(let leftError)):
                #expect(error.description == leftError.description)
            default:
                Issue.record("built and unbuilt disagree on \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // Most mutations break the JSON; enough of them leave it whole.
        #expect(parsed > 50)
        // Deeper than the top level, a member of that name is built.
        let nested = try JSONValue.parse(Array(#"{"a": {"gesture": [1]}}"#.utf8), leavingUnbuilt: ["gesture"])
        #expect(nested["a"]?["gesture"] == .array([.number("1")]))
    }

    @Test("Mutated gestures that are strict JSON: read as checked JSON (no syntax pass, as a daemon request's inline gesture), each gives the gesture or the error a file's read gives")
    func checkedJSONReadsAsAFile() throws {
        // Before "format", a string with escaped quotes and backslashes and
        // brackets and commas inside: the skip that finds "format" follows
        // strings and brackets only. Read whole as version 2; refused as
        // newer when "format" says 3.
        let tricky = Fixtures.replacing(
            #""format": 1,"#, with: #""description": "a \"}\\\", ] [{ \\", "format": 2,"#, in: Fixtures.minimalText)
        let newer = Fixtures.replacing(#""format": 2"#, with: #""format": 3"#, in: tricky)
        let read = try GestureFileFormat.decode(checkedJSON: Array(tricky.utf8), source: "g.json")
        #expect(read == (try GestureFileFormat.decode(Array(tricky.utf8), source: "g.json")))
        #expect(read.description == #"a "}\", ] [{ \"#)
        #expect(throws: GestureFormatError.self) { try GestureFileFormat.decode(checkedJSON: Array(newer.utf8), source: "g.json") }
        do {
            _ = try GestureFileFormat.decode(checkedJSON: Array(newer.utf8), source: "g.json")
        } catch {
            #expect(error.kind == .newerVersion(3))
        }
        var random = SplitMix64(seed: 0x6368_6563_6b65_64)
        let seeds = [Array(Fixtures.exampleText.utf8), Array(Fixtures.minimalText.utf8)]
        var compared = 0
        var refused = 0
        for iteration in 0..<6_000 {
            let which = iteration % 2
            let variant = Self.mutate(seeds[which], other: seeds[1 - which], using: &random)
            guard (try? JSONValue.parse(variant)) != nil else { continue }
            compared += 1
            let full = Result { () throws(GestureFormatError) in try GestureFileFormat.decode(variant, source: "g.json") }
            let checked = Result { () throws(GestureFormatError) in
                try GestureFileFormat.decode(checkedJSON: variant, source: "g.json")
            }
            switch (full, checked) {
            case (.success(let gesture), .success(let same)):
                #expect(gesture == same, "iteration \(iteration)")
            case (.failure(let error), .failure(let same)):
                refused += 1
                #expect(error.description == same.description, "iteration \(iteration)")
            default:
                Issue.record("iteration \(iteration): a file's read and a checked read disagree")
            }
        }
        // Enough mutations stay strict JSON, and some of those are not gestures.
        #expect(compared > 200)
        #expect(refused > 50)
    }

    /// A mapped file's bytes for ``GestureFileFormat/decode(mapped:owner:source:discard:)``,
    /// freed when the last reader lets go.
    final class MappedBytes: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        let count: Int
        init(_ bytes: [UInt8]) {
            buffer = .allocate(capacity: max(bytes.count, 1))
            _ = buffer.initialize(from: bytes)
            count = bytes.count
        }
        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: UnsafeBufferPointer(buffer)[0..<count]) }
        deinit { buffer.deallocate() }
    }

    static func decodeMapped(_ bytes: [UInt8]) throws(GestureFormatError) -> Gesture {
        let mapped = MappedBytes(bytes)
        return try GestureFileFormat.decode(mapped: mapped.bytes, owner: mapped, source: "g.json") {}
    }

    @Test("Issue 39: a mapped file reads as its bytes do (the same gesture, written the same, or the same error), its samples read from it when asked")
    func mappedFilesReadAsTheirBytes() throws {
        // A seed with strokes longer than 256 samples (where the reader keeps a place), pressures and sizes.
        let device = Fixtures.exampleDevice
        let strokes = (0..<3).map { stroke in
            Stroke(samples: (0..<(300 + 250 * stroke)).map { index in
                Sample(
                    time: Microseconds(Int64(index * 8_333 + stroke)), x: 100 + index * 7 % 20_000, y: 50 + index * 3 % 13_000,
                    pressure: index % 3 == 0 ? nil : index % 200, size: index % 4 == 0 ? index % 20 : nil)
            })
        }
        let long = GestureFileFormat.encodeUTF8(Gesture(name: "long", device: device, strokes: strokes))
        let seeds = [Array(Fixtures.exampleText.utf8), Array(Fixtures.minimalText.utf8), long]
        let whole = try Self.decodeMapped(long)
        #expect(whole == (try GestureFileFormat.decode(long, source: "g.json")))
        #expect(whole.strokes.allSatisfy { $0.samples.source != nil })
        // Read in any order: the same samples.
        let last = whole.strokes[2].samples
        #expect(last[last.count - 1] == strokes[2].samples[last.count - 1])
        #expect(last[257] == strokes[2].samples[257])
        #expect(last[3] == strokes[2].samples[3])
        #expect(last[256] == strokes[2].samples[256])
        var pieces: [UInt8] = []
        try GestureFileFormat.encode(whole) { pieces += $0 }
        #expect(pieces == long)
        var random = SplitMix64(seed: 0x6d61_7070_6564)
        var decoded = 0
        var refused = 0
        for iteration in 0..<3_000 {
            let which = iteration % 3
            let variant = Self.mutate(seeds[which], other: seeds[(which + 1) % 3], using: &random)
            let bytes = Result { () throws(GestureFormatError) in try GestureFileFormat.decode(variant, source: "g.json") }
            let mapped = Result { () throws(GestureFormatError) in try Self.decodeMapped(variant) }
            switch (bytes, mapped) {
            case (.success(let gesture), .success(let same)):
                decoded += 1
                #expect(gesture == same, "iteration \(iteration)")
                var written: [UInt8] = []
                try GestureFileFormat.encode(same) { written += $0 }
                #expect(written == GestureFileFormat.encodeUTF8(gesture), "iteration \(iteration)")
            case (.failure(let error), .failure(let same)):
                refused += 1
                #expect(error.description == same.description, "iteration \(iteration)")
                #expect(error.kind == same.kind, "iteration \(iteration)")
            default:
                Issue.record("iteration \(iteration): the bytes' read and the mapped read disagree")
            }
        }
        // Both outcomes, or the test proves nothing.
        #expect(decoded > 30)
        #expect(refused > 1_000)
    }

    @Test func mutatedFilesReadOrFailWithALocatedMessageAndNeverCrash() {
        let seeds = [Array(Fixtures.exampleText.utf8), Array(Fixtures.minimalText.utf8)]
        var random = SplitMix64(seed: 0x6765_7374_7572_6563)
        var decoded = 0
        var failedKinds: [GestureFormatError.Kind: Int] = [:]
        for iteration in 0..<12_000 {
            let which = iteration % 2
            let variant = Self.mutate(seeds[which], other: seeds[1 - which], using: &random)
            do {
                let gesture = try GestureFileFormat.decode(variant, source: "fuzz.json")
                decoded += 1
                // Whatever reads must write canonically and read back the same.
                let again = try? GestureFileFormat.decode(GestureFileFormat.encodeUTF8(gesture), source: "again.json")
                #expect(again == gesture, "iteration \(iteration)")
            } catch {
                failedKinds[error.kind, default: 0] += 1
                Self.expectClearRejection(error, text: variant, "iteration \(iteration)")
            }
        }
        // The mutations must exercise both outcomes and several error kinds,
        // or the test proves nothing.
        #expect(decoded > 100)
        #expect(failedKinds[.syntax, default: 0] > 1000)
        #expect(failedKinds[.invalid, default: 0] > 100)
        #expect(failedKinds[.tooLarge, default: 0] > 10)
    }
}
