import CommandKit
import Synchronization

/// A live status line on standard error: rewritten in place on a terminal,
/// and on other outputs printed as plain lines only when it changes.
final class StatusLine: Sendable {
    private let context: CommandContext
    private let last = Mutex<String?>(nil)

    init(context: CommandContext) { self.context = context }

    /// Shows `text` (called from the recording thread).
    func update(_ text: String) {
        let text = shown(text)
        last.withLock { previous in
            if context.isStandardErrorTerminal {
                context.standardError.write("\r\u{1B}[K" + text)
            } else if previous.map({ Self.withoutTime($0) }) != Self.withoutTime(text) {
                context.standardError.writeLine(text)
            }
            previous = text
        }
    }

    /// Prints a warning on a line of its own.
    func warn(_ message: String) {
        last.withLock { previous in
            if context.isStandardErrorTerminal && previous != nil { context.standardError.write("\r\u{1B}[K") }
            context.warn(message)
            if context.isStandardErrorTerminal, let previous { context.standardError.write(previous) }
        }
    }

    /// Ends the live line.
    func finish() {
        last.withLock { previous in
            if context.isStandardErrorTerminal && previous != nil { context.standardError.writeLine("") }
        }
    }

    /// The line without its elapsed time, so that plain output only gets a
    /// new line when strokes or contacts change.
    private static func withoutTime(_ text: String) -> String {
        text.split(separator: ",").dropFirst().joined(separator: ",")
    }
}
