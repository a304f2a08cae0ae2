import Foundation
import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureInterop

@Suite("The real peers read what we write")
struct PeerToolTests {
    static let cases: [(name: String, frames: [InputFrame])] = [
        ("touchscreen", Fixtures.tapFrames), ("touchpad", RoundTripTests.frames(count: 20)),
        ("mouse", Fixtures.oddFrames), ("keyboard", []), ("tablet", RoundTripTests.frames(count: 3)),
    ]

    static func description(_ name: String) throws -> InputDeviceDescription {
        try #require(Fixtures.all.first { $0.0 == name }?.1)
    }

    @Test(
        .requiring(PeerTools.evemuAvailable, PeerTools.evemuSkipReason),
        arguments: cases.map(\.name))
    func evemuRewritesOurRecordingIdentically(device: String) throws {
        let frames = try #require(Self.cases.first { $0.name == device }?.frames)
        let text = EvemuWriter.recording(description: try Self.description(device), frames: frames)
        let folder = try TemporaryFolder(prefix: "gesture-interop-tests")
        let directory = folder.url
        defer { withExtendedLifetime(folder) {} }
        let rewriter = try PeerTools.buildEvemuRewriter(in: directory)
        let file = directory.appendingPathComponent("\(device).evemu")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.run(rewriter, [file.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // evemu adds the recording machine's kernel and DMI; nothing else may differ.
        let machineLines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("# Kernel: ") && !$0.hasPrefix("# DMI: ") }
        #expect(machineLines.joined(separator: "\n") == text)
    }

    @Test(
        .requiring(PeerTools.evemuAvailable, PeerTools.evemuSkipReason))
    func evemuReadsTheSampleAsWeDo() throws {
        let folder = try TemporaryFolder(prefix: "gesture-interop-tests")
        let directory = folder.url
        defer { withExtendedLifetime(folder) {} }
        let rewriter = try PeerTools.buildEvemuRewriter(in: directory)
        let file = directory.appendingPathComponent("clickpad.evemu")
        try EvemuReaderTests.clickpadRecording.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.run(rewriter, [file.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let theirs = try EvemuReader.read(outcome.standardOutput, source: "evemu's rewrite")
        let ours = try EvemuReader.read(EvemuReaderTests.clickpadRecording, source: "clickpad.evemu")
        #expect(theirs.description == ours.description)
        #expect(theirs.events == ours.events)
    }

    /// What the replay loader prints for a device and frames, built from
    /// the description and the frames alone.
    static func expectedReplayOutput(
        _ description: InputDeviceDescription, udev: [String], events: [InputEvent]
    ) -> String {
        var lines = ["name: \(description.name)", "id: \(description.bus) \(description.vendor) \(description.product) \(description.version)"]
        lines += description.properties.map(\.rawValue).sorted().map { "property: \($0)" }
        lines += (0...15).map { "code: 0 \($0)" }
        for type in description.codes.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            for code in description.sortedCodes(of: type) {
                var line = "code: \(type.rawValue) \(code.rawValue)"
                if type == .absolute, let axis = description.absoluteAxes[code] {
                    line += " \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)"
                }
                lines.append(line)
            }
        }
        lines.append("udev: " + udev.joined(separator: ","))
        for event in events {
            let (seconds, microseconds) = event.time.rawValue.quotientAndRemainder(dividingBy: 1_000_000)
            lines.append("event: \(seconds) \(microseconds) \(event.type.rawValue) \(event.code.rawValue) \(event.value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        .requiring(PeerTools.replayAvailable, PeerTools.replaySkipReason),
        arguments: ["touchscreen", "touchpad", "keyboard", "tablet"])
    func libinputReplayLoadsOurDocument(device: String) throws {
        let description = try Self.description(device)
        let frames = RoundTripTests.frames(count: 30)
        let folder = try TemporaryFolder(prefix: "gesture-interop-tests")
        let directory = folder.url
        defer { withExtendedLifetime(folder) {} }
        let loader = directory.appendingPathComponent("load.py")
        try PeerTools.replayLoaderSource.write(to: loader, atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("\(device).yaml")
        try LibinputRecordWriter.document(description: description, frames: frames).write(to: file, atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.run(PeerTools.python, [loader.path, PeerTools.replayScript, file.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError == "")
        #expect(outcome.standardOutput == Self.expectedReplayOutput(
            description, udev: LibinputRecordWriter.udevProperties(for: description),
            events: RoundTripTests.expectedEvents(frames, offset: 0)))
    }

    @Test(
        .requiring(PeerTools.replayAvailable, PeerTools.replaySkipReason))
    func libinputReplayReadsTheSampleAsWeDo() throws {
        let folder = try TemporaryFolder(prefix: "gesture-interop-tests")
        let directory = folder.url
        defer { withExtendedLifetime(folder) {} }
        let loader = directory.appendingPathComponent("load.py")
        try PeerTools.replayLoaderSource.write(to: loader, atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("touch.yaml")
        try LibinputRecordReaderTests.touchscreenRecording.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try ProcessRunner.run(PeerTools.python, [loader.path, PeerTools.replayScript, file.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let ours = try LibinputRecordReader.read(LibinputRecordReaderTests.touchscreenRecording, source: "touch.yaml")
        #expect(outcome.standardOutput == Self.expectedReplayOutput(
            ours.description, udev: ours.udevProperties, events: ours.events))
    }
}
