import GestureModel
import Glibc
import Synchronization
import InputSystem
import OperatingSystem
import Testing
import TestSupport

@testable import GestureRecording

/// An import's temporary file of samples (``SampleSpill``): where it goes,
/// and what happens when what was written cannot be read back.
@Suite struct SampleSpillTests {
    /// A recorder spilling into /tmp through `map`, fed one finger for
    /// three chunks' worth of frames (two full chunks go to the file).
    private func recorder(map: @escaping SampleSpill.Mapper) throws -> StrokeRecorder {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreen)
        recorder.spillSamples(into: "/tmp", map: map)
        let frames = SampleChunks.chunkCapacity * 3
        recorder.feed(all: frame(0, [abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 0), abs(.multitouchPositionY, 100)]))
        for index in 1..<frames { recorder.feed(all: frame(Int64(index), [abs(.multitouchPositionX, Int32(index % 1000))])) }
        recorder.feed(all: frame(Int64(frames), [abs(.multitouchTrackingID, -1)]))
        return recorder
    }

    @Test("Written but not readable back: the import fails with a clear error, no crash")
    func unreadableSpillFailsTheImport() throws {
        let refused: SampleSpill.Mapper = { _, _, path throws(SystemError) in
            throw SystemError(call: "mmap", path: path, errorNumber: ENOMEM)
        }
        // A sample read meanwhile is zeros, not a crash.
        let spill = try #require(SampleSpill.make(folder: "/tmp", map: refused))
        var chunks = SampleChunks(first: sample(0, 0, 0), spill: spill)
        for index in 1..<(SampleChunks.chunkCapacity * 2) { chunks.append(sample(Int64(index), index, 0)) }
        #expect(chunks.samples[5] == Sample(time: .zero, x: 0, y: 0))
        #expect(throws: RecordingError.self) { try spill.finish() }
        let recorder = try recorder(map: refused)
        #expect {
            _ = try recorder.finished()
        } throws: { error in
            guard case .spillUnreadable(let cause)? = error as? RecordingError else { return false }
            let text = (error as! RecordingError).description
            return cause.errorNumber == ENOMEM && text.hasPrefix("import: cannot read back its temporary file: mmap /tmp/gesturectl-import-")
                && text.hasSuffix("Cannot allocate memory (errno 12); nothing written")
        }
    }

    @Test("Readable back: every sample, from one mapping made at the end")
    func readableSpill() throws {
        let calls = Counter()
        let recorder = try recorder { file, size, path throws(SystemError) in
            calls.add()
            return try MappedFile(descriptor: file, size: size, path: path)
        }
        let gesture = try recorder.finished().gesture
        let mappedAtFinish = calls.value
        let samples = gesture.strokes[0].samples
        #expect(samples.count == SampleChunks.chunkCapacity * 3 + 1)
        #expect(samples[1_500] == sample(1_500, 1_500 % 1000, 100))
        #expect(mappedAtFinish >= 1 && calls.value == mappedAtFinish, "read from the mapping made at the end")
    }

    @Test("The folders tried: $TMPDIR, beside the output, the cache folder, /tmp")
    func folders() {
        let home = ["HOME": "/home/ann"]
        let paths = { (environment: [String: String], output: String?) in
            SpillFolders.candidates(environment: environment, output: output).map(\.path)
        }
        #expect(paths(home, "/work/out.json") == ["/work", "/home/ann/.cache/gesturectl", "/tmp"])
        #expect(paths(home, nil) == ["/home/ann/.cache/gesturectl", "/tmp"])
        #expect(paths(home.merging(["TMPDIR": "/scratch"]) { $1 }, "/work/out.json") == ["/scratch", "/work", "/home/ann/.cache/gesturectl", "/tmp"])
        #expect(paths(home.merging(["XDG_CACHE_HOME": "/var/cache/ann", "TMPDIR": ""]) { $1 }, "/library/") == ["/library", "/var/cache/ann/gesturectl", "/tmp"])
        // A relative XDG_CACHE_HOME is ignored (the XDG rule); no home, no cache.
        #expect(paths(["XDG_CACHE_HOME": "cache"], nil) == ["/tmp"])
        #expect(paths(["TMPDIR": "/tmp"], "/out.json") == ["/tmp", "/"])
        #expect(SpillFolders.candidates(environment: home, output: nil).map(\.create) == [true, false])
    }

    @Test("The cache folder is made private (0700), and the spill goes there when $TMPDIR is not set")
    func cacheFolderIsCreated() throws {
        let scratch = try TemporaryFolder()
        let folders = SpillFolders.candidates(environment: ["HOME": scratch.path], output: scratch.path + "/missing/out.json")
        let spill = try #require(SampleSpill.make(folders: folders))
        #expect(spill.path.hasPrefix(scratch.path + "/.cache/gesturectl/gesturectl-import-"))
        #expect(try Paths.status(scratch.path + "/.cache").permissions & 0o777 == 0o700)
        #expect(try Paths.status(scratch.path + "/.cache/gesturectl").permissions & 0o777 == 0o700)
        // Unlinked at once: nothing left there.
        #expect(try FileSystem.contentsOfDirectory(scratch.path + "/.cache/gesturectl") == [])
    }
}

/// A count shared with a `@Sendable` closure.
private final class Counter: @unchecked Sendable {
    private let lock = Mutex(0)
    func add() { lock.withLock { $0 += 1 } }
    var value: Int { lock.withLock { $0 } }
}
