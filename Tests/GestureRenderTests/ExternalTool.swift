import Foundation
import TestSupport

/// Runs the command-line tools the SVG tests check their output with
/// (`xmllint` from libxml2-utils, `rsvg-convert` from librsvg2-bin).
enum ExternalTool {
    /// Whether both tools are installed.
    static let toolsAreInstalled = ProcessRunner.path(of: "xmllint") != nil && ProcessRunner.path(of: "rsvg-convert") != nil

    enum Failure: Error, CustomStringConvertible {
        case missing(String)
        var description: String {
            switch self {
            case .missing(let name): "\(name) is not installed (apt-get install libxml2-utils librsvg2-bin)"
            }
        }
    }

    /// Runs `name` (looked up on `PATH`) with `arguments` and waits for it to finish.
    static func run(_ name: String, _ arguments: [String]) throws -> ProcessOutcome {
        guard let executable = ProcessRunner.path(of: name) else { throw Failure.missing(name) }
        return try ProcessRunner.run(executable, arguments)
    }
}
