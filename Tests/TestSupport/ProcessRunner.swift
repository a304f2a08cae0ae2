import Foundation
import Glibc
import OperatingSystem

/// How a program run by ``ProcessRunner`` ended, and what it wrote.
public struct ProcessOutcome: Hashable, Sendable {
    /// How it ended.
    public var termination: ChildProcess.Termination
    /// Its standard output, decoded as UTF-8 (invalid bytes become U+FFFD).
    public var standardOutput: String
    /// Its standard error, decoded the same way.
    public var standardError: String

    /// The exit status; 128 + the signal number when a signal ended it, as
    /// a shell reports it.
    public var status: Int32 {
        switch termination {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
    }
}

/// Runs other programs for tests: the built `gesturectl`, peer tools
/// (evemu, libinput replay), checkers (xmllint, rsvg-convert).
///
/// Children start through ``ChildProcess/spawn(path:arguments:environment:standardInput:standardOutput:standardError:)``,
/// so they get an empty signal mask and default signal actions whatever
/// the test process blocks or ignores. Both output pipes are read together,
/// so a child that fills one cannot block.
public enum ProcessRunner {
    /// A program's failure to start, or an error reading its output.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The full path of `name` on `PATH` (or `/usr/bin:/bin`), if it is there.
    public static func path(of name: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` (a path) with `arguments` and waits for it.
    /// - Parameters:
    ///   - workingDirectory: where it runs (`nil`: ours); set through
    ///     `env -C`, which `posix_spawn` has no portable way to do.
    ///   - environment: its whole environment (`nil`: ours).
    ///   - standardInput: what it reads (`nil`: nothing, as from /dev/null).
    public static func run(
        _ executable: String, _ arguments: [String], workingDirectory: String? = nil,
        environment: [String: String]? = nil, standardInput: String? = nil
    ) throws -> ProcessOutcome {
        var path = executable
        var argv = arguments
        if let workingDirectory {
            path = "/usr/bin/env"
            argv = ["-C", workingDirectory, "--", executable] + arguments
        }
        // Standard input from a file: no writer thread, and no pipe to fill.
        let inputFolder = try standardInput.map { _ in try TemporaryFolder(prefix: "gesturectl-stdin") }
        let inputPath: String
        if let inputFolder, let standardInput {
            try inputFolder.write("stdin", standardInput)
            inputPath = inputFolder.file("stdin")
        } else {
            inputPath = "/dev/null"
        }
        let input = try FileDescriptor.open(inputPath)
        defer { input.close() }
        let output = try FileDescriptor.pipe()
        let errors = try FileDescriptor.pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                path: path, arguments: argv,
                environment: environment.map { $0.map { "\($0.key)=\($0.value)" }.sorted() },
                standardInput: input, standardOutput: output.write, standardError: errors.write)
        } catch {
            for end in [output.read, output.write, errors.read, errors.write] { end.close() }
            throw error
        }
        // Only the child may hold the write ends, or the reads never end.
        output.write.close()
        errors.write.close()
        defer {
            output.read.close()
            errors.read.close()
        }
        var collected: [[UInt8]] = [[], []]
        var open = [true, true]
        let readEnds = [output.read, errors.read]
        while open.contains(true) {
            let watched = readEnds.indices.filter { open[$0] }
            let events = try Poll.wait(watched.map { (readEnds[$0], Poll.Events.readable) }, timeoutMilliseconds: nil)
            for (position, index) in watched.enumerated() where !events[position].isEmpty {
                guard let bytes = try readEnds[index].read(upTo: 65_536), !bytes.isEmpty else {
                    open[index] = false
                    continue
                }
                collected[index] += bytes
            }
        }
        let termination = try child.wait()
        withExtendedLifetime(inputFolder) {}
        return ProcessOutcome(
            termination: termination, standardOutput: String(decoding: collected[0], as: UTF8.self),
            standardError: String(decoding: collected[1], as: UTF8.self))
    }
}
