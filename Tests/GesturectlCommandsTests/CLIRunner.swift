import Foundation
import TestSupport

/// What one run of `gesturectl` did.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `gesturectl` binary, as a user or a script would.
enum CLI {
    /// The checkout's root (this file is Tests/GesturectlCommandsTests/CLIRunner.swift).
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The gesturectl binary built beside the test bundle.
    static let binary: String = {
        let bundleFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundleFolder.appendingPathComponent("gesturectl").path
    }()

    /// Runs gesturectl with `arguments` in `directory`, with a private,
    /// empty library unless `environment` says otherwise.
    static func run(
        _ arguments: [String], in directory: String = NSTemporaryDirectory(), environment: [String: String] = [:],
        stdin: String? = nil
    ) throws -> CLIResult {
        var env = ["PATH": "/usr/bin:/bin", "HOME": directory, "GESTURECTL_BUILTINS": checkout + "/Recordings"]
        env.merge(environment) { $1 }
        let outcome = try ProcessRunner.run(
            binary, arguments, workingDirectory: directory, environment: env, standardInput: stdin)
        return CLIResult(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }
}
