import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

@Suite("Round trips and format detection")
struct RoundTripTests {
    /// Frames of many events for every device kind: the values do not have
    /// to make sense to a device to survive a round trip.
    static func frames(count: Int) -> [InputFrame] {
        (0..<count).map { index in
            let time = Int64(index) * 8_333 + 1_000_000
            return InputFrame(
                time: Microseconds(time),
                events: [
                    InputEvent(type: .absolute, code: .multitouchSlot, value: Int32(index % 5)),
                    InputEvent(type: .absolute, code: .multitouchPositionX, value: Int32(index * 7 - 3000)),
                    InputEvent(type: .key, code: .buttonTouch, value: Int32(index % 2)),
                    InputEvent(type: .relative, code: .relativeX, value: -Int32(index)),
                    .synchronizationReport(),
                ])
        }
    }

    /// The events the readers give back: every event with its frame's time,
    /// measured from the first frame, plus `offset`.
    static func expectedEvents(_ frames: [InputFrame], offset: Int64) -> [InputEvent] {
        guard let first = frames.first?.time else { return [] }
        return frames.flatMap { frame in
            frame.events.map { event in
                var copy = event
                copy.time = Microseconds(frame.time.rawValue - first.rawValue + offset)
                return copy
            }
        }
    }

    @Test("evemu: write, read back, same description and events (times from 1 µs)", arguments: Fixtures.all.map(\.0))
    func evemu(device: String) throws {
        let description = try #require(Fixtures.all.first { $0.0 == device }?.1)
        let frames = Self.frames(count: 50)
        let text = EvemuWriter.recording(description: description, frames: frames)
        let recording = try EvemuReader.read(text, source: "\(device).evemu")
        #expect(recording.description == description)
        #expect(recording.events == Self.expectedEvents(frames, offset: 1))
        #expect(recording.ignoredLines.isEmpty)
        #expect(InteropFormat.detect(text: text) == .evemu)
    }

    @Test("libinput record: write, read back, same description and events (times from 0)", arguments: Fixtures.all.map(\.0))
    func libinputRecord(device: String) throws {
        let description = try #require(Fixtures.all.first { $0.0 == device }?.1)
        let frames = Self.frames(count: 50)
        let text = LibinputRecordWriter.document(description: description, frames: frames, node: "/dev/input/event5")
        let recording = try LibinputRecordReader.read(text, source: "\(device).yaml")
        #expect(recording.description == description)
        #expect(recording.events == Self.expectedEvents(frames, offset: 0))
        #expect(recording.node == "/dev/input/event5")
        #expect(recording.udevProperties == LibinputRecordWriter.udevProperties(for: description))
        #expect(InteropFormat.detect(text: text) == .libinputRecord)
    }

    @Test("A long recording reads back in both formats (10 000 frames)")
    func longRecording() throws {
        let frames = Self.frames(count: 10_000)
        let evemu = try EvemuReader.read(EvemuWriter.recording(description: TestDevices.centredClickpad, frames: frames), source: "e")
        #expect(evemu.events.count == 50_000)
        let yaml = LibinputRecordWriter.document(description: TestDevices.centredClickpad, frames: frames)
        let libinput = try LibinputRecordReader.read(yaml, source: "l")
        #expect(libinput.events == Self.expectedEvents(frames, offset: 0))
    }

    @Test("InteropReader detects the format and reads either")
    func interopReader() throws {
        let evemu = try InteropReader.read(EvemuReaderTests.clickpadRecording, source: "a")
        #expect(evemu.format == .evemu)
        #expect(evemu.description == EvemuReaderTests.clickpad)
        #expect(evemu.events.count == 17)
        let libinput = try InteropReader.read(LibinputRecordReaderTests.touchscreenRecording, source: "b")
        #expect(libinput.format == .libinputRecord)
        #expect(libinput.events.count == 16)
        #expect(throws: InteropError(
            kind: .unknownFormat, source: "c",
            message: "not an evemu recording ('# EVEMU 1.3', 'N: NAME'), a libinput record file ('version: 1'), "
                + "an Android uinput command file ('{\"command\": \"register\", …}') "
                + "or a WebDriver actions payload ('{\"actions\": […]}')")) {
            try InteropReader.read("{\"format\": \"gesturectl\"}", source: "c")
        }
    }

    @Test("Format detection from the first lines")
    func detection() {
        let cases: [(String, InteropFormat)] = [
            ("# EVEMU 1.3\n# Kernel: 6.1\nN: x\n", .evemu),
            ("\n\n  #EVEMU 1.2\n", .evemu),
            ("N: Old device\nI: 0003 0001 0001 0001\n", .evemu),
            ("E: 0.000001 0003 0000 0001\n", .evemu),
            ("# libinput record\nversion: 1\n", .libinputRecord),
            ("# a comment\nversion: 1\nndevices: 1\n", .libinputRecord),
            ("ndevices: 1\n", .libinputRecord),
            ("devices:\n", .libinputRecord),
            ("{\"format\": \"gesturectl-gesture\"}\n", .unknown),
            ("# just a comment\n", .unknown),
            ("", .unknown),
            ("\u{FF}\u{FE}garbage", .unknown),
        ]
        for (text, format) in cases {
            #expect(InteropFormat.detect(text: text) == format, "\(text.debugDescription)")
        }
        #expect(InteropFormat.detect([0xff, 0x00, 0x0a, 0x4e, 0x3a]) == .unknown)
        #expect(InteropFormat.detect(Array("# EVEMU 1.3\n".utf8)) == .evemu)
        #expect(InteropFormat.evemu.rawValue == "evemu")
        #expect(InteropFormat.libinputRecord.rawValue == "libinput")
    }
}
