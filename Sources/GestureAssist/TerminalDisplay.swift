import GestureModel
import GestureRecording
import GestureRender
import OperatingSystem

/// A flow on a terminal, or as a plain transcript.
///
/// Plain mode (``Style/plain``: standard output is no terminal, `TERM` is
/// `dumb`, or `--plain`): every state change is one line of text, with no
/// escape sequences; each highlight of a menu is its own line. Terminal
/// mode: the same lines, except that a menu's highlight is redrawn in
/// place on one line, and the review is an animated picture. Colour (only
/// in terminal mode, never with `NO_COLOR`) is never the only signal: the
/// highlighted item is also in brackets.
///
/// With ``speak`` set, each line's spoken form also goes to
/// speech-dispatcher through `spd-say`.
public final class TerminalDisplay: AssistDisplay {
    /// How the display draws.
    public enum Style: Hashable, Sendable {
        /// One line per state change, nothing else.
        case plain
        /// Menus redrawn in place, an animated review; `colour` for highlights.
        case terminal(colour: Bool)
    }

    private let output: @Sendable ([UInt8]) throws -> Void
    private let style: Style
    private var speaker: String?
    private var menuLineOpen = false
    private var pictureHeight = 0
    /// The first failed write, if any: the command reports it.
    public private(set) var writeError: (any Error)?

    /// Creates a display writing with `output` (standard output's writer);
    /// `speaker` is the path of `spd-say` when lines are to be spoken.
    public init(output: @escaping @Sendable ([UInt8]) throws -> Void, style: Style, speaker: String? = nil) {
        self.output = output
        self.style = style
        self.speaker = speaker
    }

    /// The path of `spd-say` on `PATH`, if it is installed.
    public static func findSpeaker(path: String?) -> String? {
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/spd-say"
            if Paths.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    public func say(_ line: Announcement) {
        closeMenuLine()
        pictureHeight = 0
        write(DisplayText.escaped(line.text) + "\n")
        speak(line.spoken)
    }

    public func menu(_ presenter: MenuPresenter, isNew: Bool) {
        let screen = presenter.screen
        let lines = presenter.plainLines(isNew: isNew)
        switch style {
        case .plain:
            for line in lines { write(DisplayText.escaped(line.text) + "\n") }
        case .terminal(let colour):
            if isNew {
                closeMenuLine()
                pictureHeight = 0
                write(DisplayText.escaped(screen.title.text) + "\n")
            }
            // Redrawn in place: carriage return, clear the line.
            write("\r\u{1B}[2K" + menuLine(screen, presenter.highlighted, colour: colour))
            menuLineOpen = true
        }
        if isNew { speak(screen.title.spoken) }
        if let last = lines.last { speak(last.spoken) }
    }

    public func namePrompt(suggestion: String, typed: String) {
        let prompt = "Name to save as (Return for \(DisplayText.escaped(suggestion)), Escape to go back): "
        switch style {
        case .plain:
            if typed.isEmpty { write(prompt + "\n") }
        case .terminal:
            write("\r\u{1B}[2K" + prompt + DisplayText.escaped(typed))
            menuLineOpen = true
        }
        if typed.isEmpty { speak("Type a name and press Return, or press Return to save as \(suggestion).") }
    }

    public func reviewFrame(_ gesture: Gesture, fraction: Double) {
        guard case .terminal(let colour) = style else { return }
        closeMenuLine()
        let picture = renderPreview(Self.prefix(of: gesture, fraction: fraction), columns: 48, rows: 14, colour: colour)
        // Back up over the previous frame of the picture to draw over it.
        let up = pictureHeight > 0 ? "\u{1B}[\(pictureHeight)A" : ""
        write(up + picture)
        pictureHeight = picture.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
    }

    public func canvas(_ strokes: Gesture, pointer: PointerPosition) {
        guard case .terminal(let colour) = style else { return }
        closeMenuLine()
        let picture = renderPreview(strokes, columns: 48, rows: 14, colour: colour, cursor: (pointer.x, pointer.y))
        let up = pictureHeight > 0 ? "\u{1B}[\(pictureHeight)A" : ""
        write(up + picture)
        pictureHeight = picture.reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
    }

    public func finish() {
        closeMenuLine()
    }

    private func menuLine(_ screen: MenuScreen, _ highlighted: Int?, colour: Bool) -> String {
        let items = screen.items.enumerated().map { index, item in
            let label = DisplayText.escaped(item.label)
            guard index == highlighted else { return " \(label) " }
            return colour ? "\u{1B}[7m[\(label)]\u{1B}[0m" : "[\(label)]"
        }
        let paused = highlighted == nil ? "  (paused: press to scan)" : ""
        return items.joined(separator: "·") + paused
    }

    private func closeMenuLine() {
        if menuLineOpen {
            write("\n")
            menuLineOpen = false
        }
    }

    private func write(_ text: String) {
        do {
            try output(Array(text.utf8))
        } catch {
            if writeError == nil { writeError = error }
        }
    }

    /// Hands `text` to spd-say. When spd-say cannot be started, that is
    /// said once on the display and speaking stops (the lines are still
    /// printed); spd-say's own failures (no speech-dispatcher) it prints itself.
    private func speak(_ text: String) {
        guard let speaker else { return }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(path: speaker, arguments: ["--", text])
        } catch {
            self.speaker = nil
            closeMenuLine()
            write("Cannot speak: \(DisplayText.escaped("\(error)")); the lines are only printed.\n")
            return
        }
        // spd-say hands the text to speech-dispatcher and returns.
        // Harmless: waitpid of our own child fails only if it was already reaped; nothing is lost.
        _ = try? child.wait()
    }

    /// The gesture up to `fraction` of its time: what the review has drawn so far.
    static func prefix(of gesture: Gesture, fraction: Double) -> Gesture {
        guard fraction < 1 else { return gesture }
        let start = gesture.startTime
        let cut = start + Microseconds(Int64(Double(gesture.duration.rawValue) * max(0, fraction)))
        var partial = gesture
        partial.strokes = gesture.strokes.compactMap { stroke in
            let samples = stroke.samples.filter { $0.time <= cut }
            return samples.isEmpty ? nil : Stroke(kind: stroke.kind, button: stroke.button, samples: samples)
        }
        return partial
    }
}
