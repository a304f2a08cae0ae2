import Foundation

/// Runs the command-line tools the SVG tests check their output with
/// (`xmllint` from libxml2-utils, `rsvg-convert` from librsvg2-bin).
enum ExternalTool {
    /// Whether the tests run under CI, where a missing tool is a failure
    /// rather than a skip.
    static let isContinuousIntegration = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The full path of `name` on `PATH`, if it is there.
    static func path(of name: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether both tools are installed.
    static let toolsAreInstalled = path(of: "xmllint") != nil && path(of: "rsvg-convert") != nil

    /// The outcome of one run.
    struct Outcome {
        var status: Int32
        var standardError: String
    }

    enum Failure: Error, CustomStringConvertible {
        case missing(String)
        var description: String {
            switch self {
            case .missing(let name): "\(name) is not installed (apt-get install libxml2-utils librsvg2-bin)"
            }
        }
    }

    /// Runs `name` with `arguments` and waits for it to finish.
    static func run(_ name: String, _ arguments: [String]) throws -> Outcome {
        guard let executable = path(of: name) else { throw Failure.missing(name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorData = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// A fresh directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gesture-render-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
