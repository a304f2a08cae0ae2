import GestureModel
import OperatingSystem

/// Everything a command may use from its process, injected so that tests
/// can run commands in-process: output streams, environment, current
/// directory, whether the standard streams are terminals, standard input,
/// and the services the tool's commands run on (``CommandServices``).
public struct CommandContext: Sendable {
    /// Reads standard input to its end; throws when it holds more than the
    /// given number of bytes.
    public typealias InputReader = @Sendable (_ maximumBytes: Int) throws -> [UInt8]

    /// Standard output: the command's results.
    public var standardOutput: OutputWriter
    /// Standard error: messages for people.
    public var standardError: OutputWriter
    /// Environment variables.
    public var environment: [String: String]
    /// The current directory, for resolving relative paths.
    public var currentDirectory: String
    /// Whether standard input is a terminal (nothing piped in).
    public var isStandardInputTerminal: Bool
    /// Whether standard output is a terminal (colours, previews).
    public var isStandardOutputTerminal: Bool
    /// Whether standard error is a terminal.
    public var isStandardErrorTerminal: Bool
    /// Reads standard input (see ``InputReader``).
    public var readStandardInput: InputReader
    /// The tool's name, for messages; ``Tool/main(arguments:context:)`` sets it.
    public var toolName: String
    /// What the tool's commands run on (an engine, …), put there by the
    /// executable or a test.
    public var services: CommandServices
    /// The files the command mapped to read (a long gesture's file): a
    /// command checks them before it commits a result made from them
    /// (``OperatingSystem/MappedFileLog/checkIntact()``), and the tool
    /// after the command (``Tool/main(arguments:context:)``). Each run
    /// of ``Tool/main(arguments:context:)`` starts with an empty log.
    public var mappedFiles = MappedFileLog()

    /// Creates a context. The defaults suit tests: no environment, `/` as
    /// current directory, no terminals, empty standard input, and no services.
    public init(
        standardOutput: OutputWriter, standardError: OutputWriter, environment: [String: String] = [:],
        currentDirectory: String = "/", isStandardInputTerminal: Bool = false, isStandardOutputTerminal: Bool = false,
        isStandardErrorTerminal: Bool = false, readStandardInput: @escaping InputReader = { _ in [] },
        toolName: String = "", services: CommandServices = CommandServices()
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.isStandardInputTerminal = isStandardInputTerminal
        self.isStandardOutputTerminal = isStandardOutputTerminal
        self.isStandardErrorTerminal = isStandardErrorTerminal
        self.readStandardInput = readStandardInput
        self.toolName = toolName
        self.services = services
    }

    /// The context of the running process: file descriptors 0, 1 and 2,
    /// the process environment and current directory.
    public static func process() -> CommandContext {
        CommandContext(
            standardOutput: .fileDescriptor(1), standardError: .fileDescriptor(2),
            environment: SystemIO.environment(), currentDirectory: SystemIO.currentDirectory(),
            isStandardInputTerminal: SystemIO.isTerminal(0), isStandardOutputTerminal: SystemIO.isTerminal(1),
            isStandardErrorTerminal: SystemIO.isTerminal(2),
            readStandardInput: { maximumBytes in try SystemIO.readAll(0, maximumBytes: maximumBytes) }
        )
    }

    /// Writes `text` and a newline to standard output.
    public func print(_ text: String = "") { standardOutput.writeLine(text) }

    /// Writes `TOOL: warning: MESSAGE` to standard error, control and
    /// invisible characters escaped (``DisplayText``).
    public func warn(_ message: String) { standardError.writeLine(prefix + "warning: " + Self.display(message)) }

    /// Writes `TOOL: note: MESSAGE` to standard error (progress, hints),
    /// control and invisible characters escaped (``DisplayText``).
    public func note(_ message: String) { standardError.writeLine(prefix + "note: " + Self.display(message)) }

    /// Writes `TOOL: error: MESSAGE` to standard error, escaped as ``warn(_:)``.
    public func error(_ message: String) { standardError.writeLine(prefix + "error: " + Self.display(message)) }

    /// A message for standard error: its lines stay lines, every other
    /// control or invisible character is shown escaped. The last line of
    /// defence: code that quotes a file or an argument escapes it itself
    /// (with ``DisplayText/escaped(_:keepingLineBreaks:)``, line breaks too).
    public static func display(_ message: String) -> String {
        DisplayText.escaped(message, keepingLineBreaks: true)
    }

    private var prefix: String { toolName.isEmpty ? "" : toolName + ": " }
}
