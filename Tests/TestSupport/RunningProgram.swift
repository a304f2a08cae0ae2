import Glibc
import OperatingSystem

/// A program a test starts and acts on while it runs (the built
/// `gesturectl` waiting for Ctrl-C, writing into a closed pipe or a full
/// disk): its standard error is read as it comes, so the test can wait for
/// a line before it sends a signal, then read the rest and the end.
///
/// Every read is bounded by a deadline: a child that never writes what is
/// awaited fails the test instead of hanging it.
public final class RunningProgram {
    /// The child.
    public let child: ChildProcess
    /// What it wrote on standard error so far, decoded as UTF-8 (invalid
    /// bytes become U+FFFD).
    public var standardError: String { String(decoding: errorBytes, as: UTF8.self) }
    private var errorBytes: [UInt8] = []
    private let errors: FileDescriptor
    private var ended = false

    /// Starts `path` with `arguments` and `environment` (`NAME=value`
    /// entries), standard input and output from the descriptors given
    /// (`nil`: the test's own), standard error into a pipe the test reads.
    /// The descriptors given are the caller's to close (the child has its copies).
    public init(
        _ path: String, _ arguments: [String], environment: [String], standardInput: FileDescriptor? = nil,
        standardOutput: FileDescriptor? = nil
    ) throws {
        let pipe = try FileDescriptor.pipe()
        do {
            child = try ChildProcess.spawn(
                path: path, arguments: arguments, environment: environment, standardInput: standardInput,
                standardOutput: standardOutput, standardError: pipe.write)
        } catch {
            pipe.write.close()
            pipe.read.close()
            throw error
        }
        pipe.write.close()
        errors = pipe.read
    }

    deinit { errors.close() }

    /// The child's process id.
    public var processID: Int32 { child.processID }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) { _ = kill(child.processID, signal) }

    /// Reads standard error until it contains `text`, it ends, or `seconds`
    /// pass; whether it contains `text`.
    @discardableResult
    public func readStandardError(until text: String, within seconds: Double = defaultWaitSeconds) throws -> Bool {
        let deadline = WaitDeadline(seconds)
        while !standardError.contains(text), !ended {
            guard let remaining = deadline.remainingMilliseconds else { break }
            guard try Poll.waitReadable(errors, timeoutMilliseconds: remaining) else { continue }
            try readChunk()
        }
        return standardError.contains(text)
    }

    /// Reads standard error to its end (bounded by `seconds`) and waits for the child to end.
    public func finish(within seconds: Double = defaultWaitSeconds) throws -> ChildProcess.Termination {
        let deadline = WaitDeadline(seconds)
        while !ended {
            guard let remaining = deadline.remainingMilliseconds else {
                send(SIGKILL)
                throw WaitTimedOut(what: "the end of \(child.processID)'s standard error")
            }
            if try Poll.waitReadable(errors, timeoutMilliseconds: remaining) { try readChunk() }
        }
        return try child.wait()
    }

    private func readChunk() throws {
        guard let chunk = try errors.read(upTo: 4_096) else { return }
        if chunk.isEmpty { ended = true } else { errorBytes += chunk }
    }
}
