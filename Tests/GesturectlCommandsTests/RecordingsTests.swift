import Foundation
import GestureFormat
import GestureModel
import Testing
import TestSupport

/// The shipped library: every file validates, every gesture the issue
/// names is there, and the files are exactly what the generator makes.
@Suite struct RecordingsTests {
    static let folder = CLI.checkout + "/Recordings"

    static let expectedNames = [
        "tap", "double-tap", "long-press", "two-finger-tap", "pinch-in", "pinch-out", "rotate",
        "two-finger-scroll-up", "two-finger-scroll-down", "three-finger-swipe-left", "three-finger-swipe-right",
        "three-finger-swipe-up", "three-finger-swipe-down", "four-finger-swipe-up", "five-finger-pinch",
        "edge-swipe-from-top", "edge-swipe-from-bottom", "edge-swipe-from-left", "edge-swipe-from-right",
    ]

    @Test func everyShippedGestureIsPresentAndValid() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(".gesture.json") }
        #expect(Set(files) == Set(Self.expectedNames.map { $0 + ".gesture.json" }))
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + file)))
            let gesture = try GestureFileFormat.decode(bytes, source: file)
            #expect(gesture.name + ".gesture.json" == file)
            // Canonical: writing it again gives the same bytes.
            #expect(Array(GestureFileFormat.encode(gesture).utf8) == bytes, "\(file) is canonical")
        }
    }

    @Test func generatorReproducesTheShippedFiles() throws {
        let scratch = try TemporaryFolder()
        let generated = try ProcessRunner.run(
            CLI.checkout + "/scripts/generate-recordings", [CLI.binary],
            environment: ["PATH": "/usr/bin:/bin", "RECORDINGS_DIR": scratch.path])
        #expect(generated.status == 0, "\(generated.standardError)")
        for name in Self.expectedNames {
            let file = name + ".gesture.json"
            let made = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/" + file))
            let shipped = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + file))
            #expect(made == shipped, "\(file) is what scripts/generate-recordings makes")
        }
    }
}
