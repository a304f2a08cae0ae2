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
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }
    }

    @Test("2,000 mutated evemu recordings: an error or a description that survives a rewrite, never a crash")
    func evemuMutations() {
        let sample = Array(EvemuReaderTests.clickpadRecording.utf8)
        var generator = SplitMix64(seed: 0x6576_656d_75)
        var read = 0
        for _ in 0..<2_000 {
            let text = String(decoding: Self.mutate(sample, generator: &generator), as: UTF8.self)
            _ = InteropFormat.detect(text: text)
            guard let recording = try? EvemuReader.read(text, source: "fuzz.evemu") else { continue }
            read += 1
            let rewritten = try? EvemuReader.read(EvemuWriter.description(recording.description), source: "again")
            var expected = recording.description
            if Self.hasControlCharacters(expected.name) { expected.name = rewritten?.description.name ?? "" }
            #expect(rewritten?.description == expected)
        }
        // Most mutations leave a readable file; the count guards against a
        // generator that only ever produces rejects.
        #expect(read > 200)
    }

    @Test("2,000 mutated libinput recordings: an error or a description that survives a rewrite, never a crash")
    func libinputMutations() {
        let sample = Array(LibinputRecordReaderTests.touchscreenRecording.utf8)
        var generator = SplitMix64(seed: 0x6c69_6269_6e70_7574)
        var read = 0
        for _ in 0..<2_000 {
            let text = String(decoding: Self.mutate(sample, generator: &generator), as: UTF8.self)
            _ = InteropFormat.detect(text: text)
            _ = try? InteropReader.read(text, source: "fuzz")
            guard let recording = try? LibinputRecordReader.read(text, source: "fuzz.yaml") else { continue }
            read += 1
            let document = LibinputRecordWriter.document(description: recording.description, frames: [])
            let rewritten = try? LibinputRecordReader.read(document, source: "again")
            #expect(rewritten?.description == recording.description)
        }
        #expect(read > 200)
    }

    @Test("2,000 random byte strings in either format's clothing never crash")
    func randomBytes() {
        var generator = SplitMix64(seed: 42)
        for index in 0..<2_000 {
            let prefix = index % 2 == 0 ? "# EVEMU 1.3\nN: x\nI: 1 2 3 4\n" : "version: 1\ndevices:\n- node: x\n  evdev:\n"
            let body = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? Self.interesting.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
            }
            let text = prefix + String(decoding: body, as: UTF8.self)
            _ = try? InteropReader.read(text, source: "random")
            _ = try? EvemuReader.read(text, source: "random")
            _ = try? LibinputRecordReader.read(text, source: "random")
        }
    }
}
