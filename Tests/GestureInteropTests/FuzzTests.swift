import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

@Suite("Hostile input")
struct FuzzTests {
    /// Bytes that matter to the parsers, more likely than random ones.
    static let interesting: [UInt8] = Array("\n \t#:-[]{},\"'\\0123456789abfxEBANIP.|&*?~".utf8) + [0, 0x0d, 0x80, 0xc3, 0xff]

    static func mutate(_ original: [UInt8], generator: inout SplitMix64) -> [UInt8] {
        var bytes = original
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            guard !bytes.isEmpty else { break }
            let position = Int.random(in: 0..<bytes.count, using: &generator)
            let length = min(bytes.count - position, Int.random(in: 1...40, using: &generator))
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: bytes[position] = interesting.randomElement(using: &generator) ?? 0
            case 1: bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 2: bytes.removeSubrange(position..<position + length)
            case 3: bytes.insert(contentsOf: bytes[position..<position + length], at: position)
            case 4:
                let inserted = (0..<length).map { _ in interesting.randomElement(using: &generator) ?? 0 }
                bytes.insert(contentsOf: inserted, at: position)
            default: bytes.removeSubrange(position...)
            }
        }
        return bytes
    }

    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// The lines a reader numbers in `text`: split at "\n", a final line
    /// break adding no empty line.
    static func lineCount(_ text: String) -> Int {
        let breaks = text.utf8.filter { $0 == UInt8(ascii: "\n") }.count
        return text.utf8.last == UInt8(ascii: "\n") || text.isEmpty ? breaks : breaks + 1
    }

    /// Checks that `error` is something a person can act on: from `source`,
    /// a message that is not empty, and a line that exists in `text`, or no
    /// line only for a problem of the whole file (not in a known format, or
    /// nothing in it). Two faults the sources are known to have are
    /// collected in `findings` instead, for ``expect(_:)``.
    static func expectClearRejection(
        _ error: InteropError, source: String, text: String, findings: inout Findings,
        _ context: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.source == source, "\(context())", sourceLocation: sourceLocation)
        #expect(error.message.contains { !$0.isWhitespace }, "\(context())", sourceLocation: sourceLocation)
        if hasControlCharacters(error.message) { findings.echoed.append("\(context()): \(error.message.debugDescription)") }
        if let line = error.line, line == 0 {
            findings.lineZero.append("\(context()): \(error.description.debugDescription)")
        } else if let line = error.line {
            #expect(
                (1...max(1, lineCount(text))).contains(line),
                "\(context()): line \(line) of \(lineCount(text)) in \(error.description.debugDescription)",
                sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix("\(source):\(line): "), "\(context())", sourceLocation: sourceLocation)
        } else {
            #expect(
                error.kind == .unknownFormat || error.message.hasPrefix("the file is empty"),
                "\(context()): no line for \(error.description.debugDescription)", sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix("\(source): "), "\(context())", sourceLocation: sourceLocation)
        }
    }

    /// Rejections with a fault the sources are known to have.
    struct Findings {
        /// Messages with raw control characters (a tab, NUL or escape from
        /// the input would reach the user's terminal as is).
        var echoed: [String] = []
        /// Errors placed on line 0, which no file has.
        var lineZero: [String] = []
    }

    /// No message may carry raw control characters (the readers quote the
    /// offending text escaped, by GestureModel's `DisplayText`), and no
    /// error may be on line 0 (an empty value after the last line of a
    /// libinput file belongs to that last line).
    static func expect(_ findings: Findings, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            findings.echoed.isEmpty,
            "\(findings.echoed.count) messages with raw control characters, e.g. \(findings.echoed.prefix(3))",
            sourceLocation: sourceLocation)
        #expect(findings.lineZero.isEmpty, "\(findings.lineZero)", sourceLocation: sourceLocation)
    }

    /// The name a description has after the evemu writer and reader, by
    /// their documented rules rather than by running them: line breaks and
    /// NULs become spaces (the writer keeps `N:` on one line), then the
    /// reader skips the white space after `N:` (`isspace`: space and
    /// \t \n \v \f \r). `nil` when nothing is left, which the reader refuses.
    static func nameAfterRewrite(_ name: String) -> String? {
        let oneLine = name.unicodeScalars.map { ["\n", "\r", "\0"].contains($0) ? " " : $0 }
        let kept = oneLine.drop { $0 == " " || (0x09...0x0d).contains($0.value) }
        return kept.isEmpty ? nil : String(String.UnicodeScalarView(kept))
    }

    @Test("2,000 mutated evemu recordings: a clear error, or a description that survives a rewrite")
    func evemuMutations() {
        let sample = Array(EvemuReaderTests.clickpadRecording.utf8)
        var generator = SplitMix64(seed: 0x6576_656d_75)
        var read = 0
        var renamed = 0
        var rejected = 0
        var findings = Findings()
        for index in 0..<2_000 {
            let text = String(decoding: Self.mutate(sample, generator: &generator), as: UTF8.self)
            _ = InteropFormat.detect(text: text)
            // In pieces, as import reads: the same outcome, errors and all.
            let streamed = Result { () throws(InteropError) in try EvemuReaderTests.streamed(text, pieces: 13, source: "fuzz.evemu") }
            let recording: EvemuRecording
            do {
                recording = try EvemuReader.read(text, source: "fuzz.evemu")
            } catch {
                rejected += 1
                Self.expectClearRejection(error, source: "fuzz.evemu", text: text, findings: &findings, "case \(index)")
                #expect(streamed == .failure(error), "case \(index)")
                continue
            }
            #expect(streamed == .success(recording), "case \(index)")
            read += 1
            var expected = recording.description
            guard let name = Self.nameAfterRewrite(expected.name) else {
                #expect(throws: InteropError.self, "case \(index)") {
                    try EvemuReader.read(EvemuWriter.description(recording.description), source: "again")
                }
                continue
            }
            if name != expected.name { renamed += 1 }
            expected.name = name
            let rewritten = try? EvemuReader.read(EvemuWriter.description(recording.description), source: "again")
            #expect(rewritten?.description == expected, "case \(index)")
        }
        // Most mutations leave a readable file; the counts guard against a
        // generator that only ever produces one outcome.
        #expect(read > 200)
        #expect(rejected > 200)
        #expect(renamed > 0)
        Self.expect(findings)
    }

    @Test("2,000 mutated libinput recordings: a clear error, or a description that survives a rewrite")
    func libinputMutations() {
        let sample = Array(LibinputRecordReaderTests.touchscreenRecording.utf8)
        var generator = SplitMix64(seed: 0x6c69_6269_6e70_7574)
        var read = 0
        var rejected = 0
        var findings = Findings()
        for index in 0..<2_000 {
            let text = String(decoding: Self.mutate(sample, generator: &generator), as: UTF8.self)
            _ = InteropFormat.detect(text: text)
            do {
                _ = try InteropReader.read(text, source: "fuzz")
            } catch {
                Self.expectClearRejection(error, source: "fuzz", text: text, findings: &findings, "case \(index), either format")
            }
            // In pieces, as import reads: a clear error too (the rest of the
            // document may be checked after the events, so not always the
            // same one), and what a whole read reads.
            let streamed = Result { () throws(InteropError) in
                try LibinputRecordReaderTests.streamed(text, pieces: 13, source: "fuzz.yaml")
            }
            if case .failure(let error) = streamed {
                Self.expectClearRejection(error, source: "fuzz.yaml", text: text, findings: &findings, "case \(index), in pieces")
            }
            let recording: LibinputRecording
            do {
                recording = try LibinputRecordReader.read(text, source: "fuzz.yaml")
            } catch {
                rejected += 1
                Self.expectClearRejection(error, source: "fuzz.yaml", text: text, findings: &findings, "case \(index)")
                if case .success = streamed { Issue.record("case \(index): read in pieces, but refused whole: \(error)") }
                continue
            }
            #expect(streamed == .success(recording), "case \(index)")
            read += 1
            let document = LibinputRecordWriter.document(description: recording.description, frames: [])
            let rewritten = try? LibinputRecordReader.read(document, source: "again")
            #expect(rewritten?.description == recording.description, "case \(index)")
        }
        #expect(read > 200)
        #expect(rejected > 200)
        Self.expect(findings)
    }

    @Test("2,000 random byte strings in either format's clothing: every rejection is a clear error")
    func randomBytes() {
        var generator = SplitMix64(seed: 42)
        var rejected = 0
        var findings = Findings()
        for index in 0..<2_000 {
            let prefix = index % 2 == 0 ? "# EVEMU 1.3\nN: x\nI: 1 2 3 4\n" : "version: 1\ndevices:\n- node: x\n  evdev:\n"
            let body = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? Self.interesting.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
            }
            let text = prefix + String(decoding: body, as: UTF8.self)
            let readers: [(source: String, read: (String) throws -> Void)] = [
                ("random", { _ = try InteropReader.read($0, source: "random") }),
                ("random.evemu", { _ = try EvemuReader.read($0, source: "random.evemu") }),
                ("random.yaml", { _ = try LibinputRecordReader.read($0, source: "random.yaml") }),
            ]
            for (source, read) in readers {
                do {
                    try read(text)
                } catch let error as InteropError {
                    rejected += 1
                    Self.expectClearRejection(error, source: source, text: text, findings: &findings, "case \(index), \(source)")
                } catch {
                    Issue.record("case \(index), \(source): \(error) is not an InteropError")
                }
            }
        }
        // Random bytes are mostly refused; the count shows the checks ran.
        #expect(rejected > 2_000)
        Self.expect(findings)
    }
}
