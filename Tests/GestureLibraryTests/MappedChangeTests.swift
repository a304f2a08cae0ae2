import Glibc
import GestureFormat
import GestureModel
import OperatingSystem
import Testing
import TestSupport

@testable import GestureLibrary

/// A long gesture's file (mapped, issue 39) that another program cuts
/// short: a clear error naming it, never a crash or a misleading one.
@Suite("Mapped gesture files cut short")
struct MappedChangeTests {
    /// A one-stroke gesture of `count` samples, as text.
    static func text(samples count: Int) -> String {
        let samples = (0..<count).map { "        [\($0 * 8333), \(1000 + $0 % 500), 2000]" }.joined(separator: ",\n")
        return """
            {
              "format": 1,
              "name": "long",
              "device": {
                "kind": "touchscreen",
                "x": { "min": 0, "max": 21600, "resolution": 100 },
                "y": { "min": 0, "max": 13500, "resolution": 100 },
                "slots": 10
              },
              "strokes": [
                {
                  "kind": "finger",
                  "samples": [
            \(samples)
                  ]
                }
              ]
            }

            """
    }

    /// The gesture's file in `folder`, mapped (every size is mapped here).
    private func mapped(in folder: TemporaryFolder, samples: Int) throws -> (path: String, contents: FileIO.Contents) {
        let path = folder.path + "/long.gesture.json"
        try FileIO.writeAtomically(Array(Self.text(samples: samples).utf8), to: path)
        let contents = try FileIO.readOrMap(path: path, limit: 1 << 30, mapFrom: 1)
        guard case .mapped = contents else { throw FileSystemError(kind: .other, path: path, operation: "map", reason: "not mapped") }
        return (path, contents)
    }

    @Test("Cut short after it was mapped, before it is read: the file changed, not a syntax error", arguments: [0, 5_000, 40_000])
    func cutBeforeDecode(keptBytes: Int) throws {
        let folder = try TemporaryFolder()
        let (path, contents) = try mapped(in: folder, samples: 5_000)
        #expect(truncate(path, keptBytes) == 0)
        do {
            _ = try GestureFile.decode(contents, source: "long.gesture.json")
            Issue.record("decoded a file cut short")
        } catch {
            #expect(error.kind == .changed)
            #expect(error.description == "long.gesture.json: changed while it was read (cut short by another program)")
        }
    }

    @Test("Cut short after it was read, while its samples are used: zeros, the log says so, and no save")
    func cutWhileUsed() throws {
        let folder = try TemporaryFolder()
        let (path, contents) = try mapped(in: folder, samples: 20_000)
        guard case .mapped(let file) = contents else { return }
        let log = MappedFileLog()
        log.note(file, shownAs: "long.gesture.json")
        let gesture = try GestureFile.decode(contents, source: "long.gesture.json")
        #expect(truncate(path, 4_096) == 0)
        let samples = gesture.strokes[0].samples
        #expect(samples[samples.count - 1].time == .zero)
        #expect(log.firstChanged == "long.gesture.json")
        let library = GestureLibrary(userDirectory: folder.path + "/library", builtinDirectory: nil)
        #expect(throws: LibraryError(.other, "long.gesture.json: changed while it was read (cut short by another program); nothing written")) {
            try library.save(gesture, as: "copy", overwrite: false, readFrom: log)
        }
        #expect(!FileIO.exists(folder.path + "/library/copy.gesture.json"))
    }
}
