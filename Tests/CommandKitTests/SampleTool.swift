import CommandKit
import TestSupport

/// What one in-process run of the sample tool printed and returned.
struct RunResult: Equatable {
    var status: Int32
    var output: String
    var error: String
}

/// Values a sample command saw, so tests can check parsing.
final class Recorder: Sendable {
    private let buffer = OutputBuffer()
    var writer: OutputWriter { buffer.writer }
    var text: String { buffer.text }
}

/// A small tool shaped like gesturectl, for tests.
let sampleTool = Tool(
    name: "gesturectl", version: "0.1.0", abstract: "Record, merge and replay touch gestures.",
    commands: [
        Command(
            name: "merge", abstract: "Merge strokes into one multi-finger gesture.",
            discussion: """
                Each stroke becomes a finger.

                Examples:
                  gesturectl merge a.gesture b.gesture -o pinch.gesture
                  gesturectl merge --stagger 0,100ms a.gesture b.gesture
                """,
            section: "Editing",
            arguments: [Argument("files", help: "Gesture files ('-' reads standard input).", arity: .oneOrMore)],
            options: [
                .option(
                    "align", valueName: "edge", help: "Align the strokes by their start or their end.",
                    type: .choice(["start", "end"]), default: "start"),
                .option("stagger", valueName: "list", help: "Start offsets, one per stroke.", type: .list(of: .duration)),
                .option("output", short: "o", valueName: "file", help: "Where to write ('-' for standard output)."),
                .flag("force", short: "f", help: "Overwrite an existing file."),
            ]
        ) { values, context in
            context.print("files=\(values.arguments("files"))")
            context.print("align=\(values.string("align") ?? "nil") given=\(values.isGiven("align"))")
            context.print("stagger=\(values.durations("stagger"))")
            context.print("output=\(values.string("output") ?? "nil") force=\(values.flag("force"))")
        },
        Command(
            name: "fingers", abstract: "Replicate a stroke onto several fingers.", section: "Editing",
            arguments: [Argument("file", help: "The gesture file.")],
            options: [
                .option("count", short: "n", help: "How many fingers.", type: .integer(in: 2...10), default: "2"),
                .option("spacing", valueName: "mm", help: "Distance between fingers in millimetres.", type: .double(minimum: 0)),
                .option("speed", help: "Speed factor.", type: .double(in: 0.01...100), default: "1"),
                .option("delay", help: "Wait before starting.", type: .duration(maximum: 60_000_000)),
                .option("offset", help: "Time offset.", type: .duration(minimum: nil)),
            ]
        ) { values, context in
            context.print(
                "file=\(values.argument("file") ?? "nil") count=\(values.integer("count") ?? -1) "
                    + "spacing=\(values.double("spacing").map { String($0) } ?? "nil") speed=\(values.double("speed") ?? -1) "
                    + "delay=\(values.duration("delay").map { String($0) } ?? "nil") "
                    + "offset=\(values.duration("offset").map { String($0) } ?? "nil")"
            )
        },
        Command(
            name: "list", abstract: "List saved gestures.", section: "Library",
            arguments: [Argument("pattern", help: "Only names containing this.", arity: .optional)],
            options: [
                .option("tag", help: "Only gestures with this tag.", repeatable: true),
                .flag("json", help: "Print JSON."),
            ]
        ) { values, context in
            context.print("pattern=\(values.argument("pattern") ?? "nil") tags=\(values.strings("tag")) json=\(values.flag("json"))")
        },
        Command(
            name: "rename", abstract: "Rename a saved gesture.", section: "Library",
            arguments: [Argument("old", help: "Current name."), Argument("new", help: "New name.")]
        ) { values, context in
            if values.argument("old") == values.argument("new") { throw CommandFailure.usage("the names are the same") }
            throw CommandFailure.notFound("no gesture named '\(values.argument("old") ?? "")'")
        },
        Command(name: "fail", abstract: "Fail in various ways.", arguments: [Argument("how", help: "How.")]) { values, _ in
            switch values.argument("how") {
            case "plain": throw SampleError.broken
            case "cancel": throw CancellationError()
            case "silent": throw CommandFailure.exit(.failure)
            default: throw SampleError.mapped
            }
        },
    ],
    mapError: { error in (error as? SampleError) == .mapped ? .permissionDenied("mapped error") : nil }
)

enum SampleError: Error, CustomStringConvertible {
    case broken, mapped
    var description: String { self == .broken ? "something broke" : "mapped" }
}

/// Runs the sample tool in-process with `arguments`.
func run(_ arguments: [String], tool: Tool = sampleTool) async -> RunResult {
    let output = OutputBuffer()
    let error = OutputBuffer()
    let context = CommandContext(standardOutput: output.writer, standardError: error.writer)
    let status = await tool.main(arguments: arguments, context: context)
    return RunResult(status: status, output: output.text, error: error.text)
}

/// Runs the sample tool in-process with `arguments`.
func run(_ arguments: String...) async -> RunResult { await run(arguments) }
