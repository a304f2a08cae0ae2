import Foundation
import Glibc
import GestureModel
import OperatingSystem
import Synchronization
import Testing

/// One set of limits, applied everywhere (docs/FORMAT.md, Limits): the help
/// states the ranges the checks apply, export and `play --print` write
/// frame by frame (memory does not grow with the gesture), and import
/// reads what export writes.
@Suite struct LimitsTests {
    /// A fresh folder for one test's files.
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "gesturectl-limits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The binary whose memory is measured: the release build named by
    /// `GESTURECTL_RELEASE_BINARY` (scripts/test sets it to the package's:
    /// the memory users see, in a tenth of the debug build's CPU), else the
    /// debug build beside the tests.
    static let measuredBinary: String = {
        if let release = getenv("GESTURECTL_RELEASE_BINARY").map({ String(cString: $0) }), access(release, X_OK) == 0 {
            return release
        }
        return CLI.binary
    }()

    /// Runs gesturectl in `directory` with standard output on /dev/null;
    /// its exit status and its peak resident memory in KiB. The child is
    /// forked by a small Python process and measured there (wait4): a
    /// child spawned straight from this test process (posix_spawn, vfork)
    /// would count this process's own peak as its own.
    private func peakMemory(_ arguments: [String], in directory: String) throws -> (status: Int32, kibibytes: Int) {
        let report = directory + "/peak-" + UUID().uuidString
        let measure = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[2], sys.argv[2:])
            _, status, usage = os.wait4(pid, 0)
            open(sys.argv[1], "w").write(str(usage.ru_maxrss))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let null = try FileDescriptor.open("/dev/null", .writeOnly)
        defer { null.close() }
        let child = try ChildProcess.spawn(
            path: "/usr/bin/python3", arguments: ["-c", measure, report, Self.measuredBinary] + arguments,
            environment: ["PATH=/usr/bin:/bin", "HOME=\(directory)", "GESTURECTL_BUILTINS=\(CLI.checkout)/Recordings"],
            standardOutput: null, standardError: null)
        guard case .exited(let status) = try child.wait() else { return (-1, 0) }
        let peak = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Int($0) } ?? 0
        return (status, peak)
    }

    @Test("play --repeat: the help states the range the check applies, and the check takes all of it")
    func repeatRangeIsOne() throws {
        let help = try CLI.run(["help", "play"])
        #expect(help.stdout.contains("(1 to \(GestureLimits.maximumRepeatCount); default: 1)"))
        let most = try CLI.run(["play", "tap", "--print", "--repeat", String(GestureLimits.maximumRepeatCount)])
        #expect(most.status == 0, "\(most.stderr)")
        #expect(most.stdout.components(separatedBy: "BTN_TOUCH            1").count - 1 == GestureLimits.maximumRepeatCount)
        let beyond = try CLI.run(["play", "tap", "--print", "--repeat", String(GestureLimits.maximumRepeatCount + 1)])
        #expect(beyond.status == 2)
        #expect(beyond.stderr.contains("10000"), "\(beyond.stderr)")
        #expect(!beyond.stderr.contains("100000"))
        // The pause between repetitions: the same range in help and check.
        #expect(help.stdout.contains("--repeat-gap"))
        #expect(help.stdout.contains("(at most 3600s;"), "\(help.stdout)")
        let longGap = try CLI.run(["play", "tap", "--print", "--repeat", "2", "--repeat-gap", "3601s"])
        #expect(longGap.status == 2, "\(longGap.stderr)")
        #expect(longGap.stderr.contains("3600s"), "\(longGap.stderr)")
        let hourGap = try CLI.run(["play", "tap", "--print", "--repeat", "2", "--repeat-gap", "3600s"])
        #expect(hourGap.status == 0, "\(hourGap.stderr)")
    }

    /// Runs the commands side by side, each child's own peak measured;
    /// each must succeed.
    private func peakMemories(
        _ runs: [[String]], in directory: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [Int: (status: Int32, kibibytes: Int)] {
        let results = Mutex<[Int: (status: Int32, kibibytes: Int)]>([:])
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in
            let result = (try? peakMemory(runs[index], in: directory)) ?? (-1, 0)
            results.withLock { $0[index] = result }
        }
        let measured = results.withLock { $0 }
        for index in runs.indices { #expect(measured[index]?.status == 0, "\(runs[index])", sourceLocation: sourceLocation) }
        return measured
    }

    @Test("export and play --print stream: their memory beyond loading the gesture does not grow from 10k to 100k samples")
    func streaming() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Ten fingers turning at 1 kHz: every sample moves, so the text is
        // about 200 bytes a sample (20 MB at 100k samples).
        var runs: [[String]] = []
        for (seconds, degrees) in [("1s", "360"), ("10s", "3600")] {
            let name = "\(directory)/r\(seconds).json"
            let made = try CLI.run(
                ["synth", "rotate", "--fingers", "10", "--rate", "1000", "--duration", seconds, "--degrees", degrees,
                 "--radius", "50", "-o", name], in: directory)
            #expect(made.status == 0, "\(made.stderr)")
            runs += [
                ["validate", name], ["export", name, "--format", "evemu", "-o", "\(name).evemu"],
                ["export", name, "--format", "libinput"], ["play", name, "--print"],
                ["export", name, "--format", "android-uinput"],
            ]
        }
        let perGroup = runs.count / 2
        let measured = peakMemories(runs, in: directory)
        for command in 1..<perGroup {
            // Memory beyond what loading the gesture takes (validate).
            let small = (measured[command]?.kibibytes ?? 0) - (measured[0]?.kibibytes ?? 0)
            let large = (measured[perGroup + command]?.kibibytes ?? 0) - (measured[perGroup]?.kibibytes ?? 0)
            // Held whole, the text alone would add 18 MB or more.
            #expect(large < small + 4_096, "\(runs[command]): \(small) KiB beyond validate at 10k samples, \(large) KiB at 100k")
        }
    }

    @Test("export --format webdriver streams too: its memory does not grow from 5 s to 50 s of two fingers at 1 kHz")
    func webdriverStreaming() throws {
        // Two fingers, as the payload is made once per finger: 10k and
        // 100k samples, about 0.8 and 8.4 MB of payload.
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var runs: [[String]] = []
        for (seconds, degrees) in [("5s", "360"), ("50s", "3600")] {
            let name = "\(directory)/r\(seconds).json"
            let made = try CLI.run(
                ["synth", "rotate", "--fingers", "2", "--rate", "1000", "--duration", seconds, "--degrees", degrees,
                 "--radius", "50", "-o", name], in: directory)
            #expect(made.status == 0, "\(made.stderr)")
            runs += [["validate", name], ["export", name, "--format", "webdriver"]]
        }
        let measured = peakMemories(runs, in: directory)
        let small = (measured[1]?.kibibytes ?? 0) - (measured[0]?.kibibytes ?? 0)
        let large = (measured[3]?.kibibytes ?? 0) - (measured[2]?.kibibytes ?? 0)
        #expect(large < small + 4_096, "\(small) KiB beyond validate at 10k samples, \(large) KiB at 100k")
    }

    /// Ten fingers circling at 120 Hz for `minutes` (benchmarks/large-gesture's
    /// gesture, written by its own generator): about 2.3 MB a minute.
    private func writeCircling(minutes: Int, to path: String) throws {
        let script = """
            import importlib.util, sys
            from importlib.machinery import SourceFileLoader
            loader = SourceFileLoader("large", sys.argv[1])
            module = importlib.util.module_from_spec(importlib.util.spec_from_loader("large", loader))
            loader.exec_module(module)
            module.write_gesture(sys.argv[2], int(sys.argv[3]))
            """
        let child = try ChildProcess.spawn(
            path: "/usr/bin/python3",
            arguments: ["-c", script, CLI.checkout + "/benchmarks/large-gesture", path, String(minutes)],
            environment: ["PATH=/usr/bin:/bin"])
        guard case .exited(0) = try child.wait() else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The long gesture's length: 10 minutes (issue 39) with the release
    /// binary; 4 with the debug build alone, which takes a minute and a
    /// half of CPU for the 10-minute set (the bound below tells the two
    /// apart at 4 as clearly: streamed, 2–4 MiB more; held, 19 MiB more).
    static let longMinutes = measuredBinary == CLI.binary ? 4 : 10

    /// The most a command may take for the long gesture, from what it took
    /// for the 1-minute one (KiB). Ten minutes: within a factor of 2 (the
    /// release binary took 13.5–15 MiB for 1 minute and 17–26 MiB for 10,
    /// export's page trimming lagging most; held in memory, the 10-minute
    /// gesture's 648k more samples and 21 MB more of text alone would take
    /// about 60 MB more). Four minutes, debug: 10 MiB more (streamed, 2–4
    /// MiB more; held, 19 MiB more).
    static func bound(_ small: Int) -> Int { longMinutes == 10 ? 2 * small : small + 10_240 }

    @Test("Issue 39: a 10-minute gesture's commands (and the import of its export) hold little more memory than a 1-minute one's (4 minutes with a debug build alone)")
    func memoryDoesNotGrowWithLength() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var runs: [[String]] = []
        let long = Self.longMinutes
        for minutes in [1, long] {
            let name = "\(directory)/m\(minutes).json"
            try writeCircling(minutes: minutes, to: name)
            runs += [
                ["validate", name], ["show", name], ["render", name, "-o", "\(name).svg"],
                ["export", name, "--format", "evemu", "-o", "\(name).evemu"],
                ["transform", name, "--speed", "2", "-o", "\(name).fast.json"],
            ]
        }
        let perGroup = runs.count / 2
        let measured = peakMemories(runs, in: directory)
        for command in 0..<perGroup {
            let small = measured[command]?.kibibytes ?? 0
            let large = measured[perGroup + command]?.kibibytes ?? 0
            #expect(large <= Self.bound(small), "\(runs[command][0]): \(small) KiB for 1 minute, \(large) KiB for \(long) minutes")
        }
        // Import of the evemu exports: its samples go to a temporary file.
        let imports = peakMemories(
            [1, long].map { ["import", "\(directory)/m\($0).json.evemu", "-o", "\(directory)/back\($0).json"] }, in: directory)
        let (small, large) = (imports[0]?.kibibytes ?? 0, imports[1]?.kibibytes ?? 0)
        #expect(large <= Self.bound(small), "import: \(small) KiB for 1 minute, \(large) KiB for \(long) minutes")
    }

    @Test("import reads what export writes, and a recording beyond its limit is refused naming the limit")
    func importReadsExports() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try CLI.run(
            ["synth", "rotate", "--fingers", "10", "--rate", "1000", "--duration", "1s", "-o", "r.json"], in: directory)
        for format in ["evemu", "libinput", "android-uinput", "webdriver"] {
            let exported = try CLI.run(["export", "r.json", "--format", format, "-o", "r.\(format)"], in: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            let imported = try CLI.run(["import", "r.\(format)", "-o", "back-\(format).json"], in: directory)
            #expect(imported.status == 0, "\(imported.stderr)")
            let described = try CLI.run(["describe", "back-\(format).json"], in: directory)
            #expect(described.stdout.hasPrefix("10 fingers"), "\(described.stdout)")
        }
        // A sparse file one byte beyond the limit: refused before reading.
        let huge = directory + "/huge.evemu"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, off_t(GestureLimits.maximumRecordingBytes) + 1) == 0)
        let refused = try CLI.run(["import", "huge.evemu"], in: directory)
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("the file has \(GestureLimits.maximumRecordingBytes + 1) bytes; the most accepted is \(GestureLimits.maximumRecordingBytes)"),
            "\(refused.stderr)")
    }

    /// Issue 24 item 8: import held the whole evemu text, every line of
    /// it, and every event before the recorder saw the first (libinput
    /// record: a YAML tree of it all).
    @Test(
        "import streams evemu and libinput record: its memory beyond validating the gesture grows with the gesture, not the text",
        arguments: ["evemu", "libinput"])
    func importStreaming(format: String) throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var runs: [[String]] = []
        var textBytes = 0
        for (seconds, degrees) in [("1s", "360"), ("10s", "3600")] {
            let name = "\(directory)/r\(seconds).json"
            let made = try CLI.run(
                ["synth", "rotate", "--fingers", "10", "--rate", "1000", "--duration", seconds, "--degrees", degrees,
                 "--radius", "50", "-o", name], in: directory)
            #expect(made.status == 0, "\(made.stderr)")
            let exported = try CLI.run(["export", name, "--format", format, "-o", "\(name).\(format)"], in: directory)
            #expect(exported.status == 0, "\(exported.stderr)")
            textBytes = try FileManager.default.attributesOfItem(atPath: "\(name).\(format)")[.size] as? Int ?? 0
            runs += [["validate", name], ["import", "\(name).\(format)", "-o", "\(name).back.json"]]
        }
        let measured = peakMemories(runs, in: directory)
        let small = (measured[1]?.kibibytes ?? 0) - (measured[0]?.kibibytes ?? 0)
        let large = (measured[3]?.kibibytes ?? 0) - (measured[2]?.kibibytes ?? 0)
        // Held whole, the text alone (and libinput's tree of it) adds more
        // than half the text's size; streamed, only the gesture grows.
        #expect(
            large - small < textBytes / 1024 / 2,
            "\(small) KiB beyond validate at 10k samples, \(large) KiB at 100k; the text is \(textBytes / 1024) KiB")
    }

    /// Issue 24 item 5: `/dev/zero` was read to the limit before it was refused.
    @Test("import of an endless input in no format is refused from its first bytes, naming the file")
    func importOfAnEndlessInput() throws {
        let refused = try CLI.run(["import", "/dev/zero"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("gesturectl: error: /dev/zero: not an evemu recording"), "\(refused.stderr)")
    }

    @Test("A failed write of a streamed export is reported, and -o FILE keeps the old file")
    func streamedWriteFailure() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try CLI.run(
            ["synth", "rotate", "--fingers", "10", "--rate", "1000", "--duration", "2s", "-o", "r.json"], in: directory)
        let full = try CLI.run(["export", "r.json", "--format", "evemu", "-o", "/dev/full"], in: directory)
        #expect(full.status == 1)
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        // A gesture no touchscreen can play (more fingers than slots) is
        // refused before anything is written: the old file stays.
        try "old\n".write(toFile: directory + "/out.evemu", atomically: false, encoding: .utf8)
        let mouse = try CLI.run(["export", "r.json", "--format", "evemu", "--as", "mouse", "-o", "out.evemu", "--force"], in: directory)
        #expect(mouse.status != 0)
        #expect(try String(contentsOfFile: directory + "/out.evemu", encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["out.evemu", "r.json"])
    }
}
