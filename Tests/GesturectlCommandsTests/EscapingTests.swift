import Foundation
import GestureModel
import Testing
import TestSupport

/// Nothing from a file, an argument or a device reaches the terminal raw
/// (issue 7, item 4): every human-readable output shows control characters
/// escaped and invisible ones as code points, by GestureModel's DisplayText.
@Suite("Escaped output")
struct EscapingTests {
    /// ESC [ 2 J (clear the screen), BEL, NUL, RIGHT-TO-LEFT OVERRIDE and a
    /// BOM, as JSON escapes (the file itself is plain ASCII).
    static let hostileJSON = #"\u001b[2J\u0007\u0000\u202e\ufeff"#
    /// What the person sees instead.
    static let shownHostile = "<U+001B>[2J<U+0007><U+0000><U+202E><U+FEFF>"

    /// A name may hold no control character (the format refuses them), but
    /// invisible and bidi ones are allowed: U+202E, U+FEFF, U+00A0.
    static let hostileName = "evil\u{202E}gnp.exe\u{FEFF}\u{00A0}x"
    static let shownName = "evil<U+202E>gnp.exe<U+FEFF><U+00A0>x"

    /// The built-in tap with a hostile name and description.
    static func hostileGesture() throws -> String {
        let tap = try String(contentsOfFile: CLI.checkout + "/Recordings/tap.gesture.json", encoding: .utf8)
        let nameJSON = #""name": "evil\u202egnp.exe\ufeff\u00a0x""#
        return tap.replacingOccurrences(of: #""name": "tap""#, with: nameJSON)
            .replacingOccurrences(
                of: #""description": "One finger taps the centre""#,
                with: #""description": "before\#(hostileJSON)after""#)
    }

    /// Every scalar a terminal could act on or a person could not see:
    /// C0 controls but the line feed, DEL, C1 controls, invisible characters.
    static func unsafeScalars(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || DisplayText.isInvisible(scalar)
        }.map { DisplayText.codePoint($0) }
    }

    /// JSON output (for programs) escapes control characters as RFC 8259
    /// requires (U+0000–U+001F; the writer does U+007F too) and leaves
    /// every other character as it is.
    static func expectJSONWithoutControls(_ result: CLIResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = result.stdout.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }
        #expect(controls.isEmpty, "\(what): \(result.stdout.debugDescription)", sourceLocation: sourceLocation)
    }

    static func expectSafe(_ result: CLIResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(unsafeScalars(result.stdout).isEmpty, "\(what) stdout: \(result.stdout.debugDescription)", sourceLocation: sourceLocation)
        #expect(unsafeScalars(result.stderr).isEmpty, "\(what) stderr: \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func showEscapesTheNameAndDescription() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("evil.gesture.json", try Self.hostileGesture())
        let result = try CLI.run(["show", "evil.gesture.json"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectSafe(result, "show")
        #expect(result.stdout.hasPrefix(Self.shownName + "\nbefore" + Self.shownHostile + "after\n"))
        // The lines of a description stay lines; other controls do not.
        try scratch.write(
            "lines.gesture.json",
            try Self.hostileGesture().replacingOccurrences(of: "before", with: #"line 1\nline 2\r\t"#))
        let lines = try CLI.run(["show", "lines.gesture.json"], in: scratch.path)
        #expect(lines.stdout.contains("\nline 1\nline 2\\r\\t" + Self.shownHostile + "after\n"), "\(lines.stdout)")
        // The JSON form stays JSON, with JSON's own escapes.
        let json = try CLI.run(["show", "evil.gesture.json", "--json"], in: scratch.path)
        Self.expectJSONWithoutControls(json, "show --json")
        #expect(json.stdout.contains(#""description": "before\u001b[2J\u0007\u0000"#))
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["description"] as? String == "before\u{1B}[2J\u{07}\u{00}\u{202E}\u{FEFF}after")
    }

    @Test func describeValidateAndListEscapeNames() throws {
        let scratch = try TemporaryFolder()
        let file = "evil\u{1B}[2J\u{07}\u{202E}\u{FEFF}.gesture.json"
        try scratch.write(file, try Self.hostileGesture())
        let shownFile = "evil<U+001B>[2J<U+0007><U+202E><U+FEFF>.gesture.json"
        let env = ["GESTURECTL_LIBRARY": scratch.path + "/lib"]

        let described = try CLI.run(["describe", file, file], in: scratch.path, environment: env)
        #expect(described.status == 0, "\(described.stderr)")
        Self.expectSafe(described, "describe")
        #expect(described.stdout.hasPrefix(shownFile + ": 1 finger · tap"))

        let validated = try CLI.run(["validate", file], in: scratch.path, environment: env)
        #expect(validated.status == 0, "\(validated.stderr)")
        Self.expectSafe(validated, "validate")
        #expect(validated.stdout.hasPrefix(shownFile + ": ok (1 finger · tap"))

        let saved = try CLI.run(["save", file, Self.hostileName], in: scratch.path, environment: env)
        #expect(saved.status == 0, "\(saved.stderr)")
        Self.expectSafe(saved, "save")
        #expect(saved.stdout.hasPrefix("saved \"\(Self.shownName)\""))

        let listed = try CLI.run(["list"], in: scratch.path, environment: env)
        #expect(listed.status == 0, "\(listed.stderr)")
        Self.expectSafe(listed, "list")
        #expect(listed.stdout.hasPrefix(Self.shownName + "  user"))
        let listedJSON = try CLI.run(["list", "--json"], in: scratch.path, environment: env)
        Self.expectJSONWithoutControls(listedJSON, "list --json")
        let items = try JSONSerialization.jsonObject(with: Data(listedJSON.stdout.utf8)) as? [[String: Any]]
        #expect(items?.first?["name"] as? String == Self.hostileName)
    }

    @Test func anInvalidValueIsQuotedEscaped() throws {
        let scratch = try TemporaryFolder()
        let tap = try String(contentsOfFile: CLI.checkout + "/Recordings/tap.gesture.json", encoding: .utf8)
        try scratch.write(
            "bad.gesture.json",
            tap.replacingOccurrences(of: #""kind": "touchscreen""#, with: #""kind": "touch\#(Self.hostileJSON)screen""#))
        for command in ["validate", "show", "describe"] {
            let result = try CLI.run([command, "bad.gesture.json"], in: scratch.path)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            Self.expectSafe(result, command)
            #expect(result.stderr.contains("unknown device kind"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("<U+202E><U+FEFF>screen"), "\(command): \(result.stderr)")
        }
        // A name with a control character: refused, the character named.
        try scratch.write(
            "badname.gesture.json", tap.replacingOccurrences(of: #""name": "tap""#, with: #""name": "a\#(Self.hostileJSON)""#))
        let result = try CLI.run(["validate", "badname.gesture.json"], in: scratch.path)
        #expect(result.status == 1)
        Self.expectSafe(result, "validate badname")
        #expect(result.stderr.contains("control character"))
    }

    @Test func argumentsQuotedInErrorsAreEscaped() throws {
        let scratch = try TemporaryFolder()
        let evil = "x\u{1B}[2J\u{07}\u{202E}\u{FEFF}"
        for arguments in [
            ["show", evil], ["describe", evil + ".json"], ["synth", "tap", "--fingers", evil],
            ["synth", "swipe", "--direction", evil], ["transform", "tap", "--fit", evil], ["rm", "--force", evil],
            ["--" + evil], ["synth", "tap", "-o", scratch.path + "/" + evil, "--rate", evil],
        ] {
            let result = try CLI.run(arguments, in: scratch.path)
            #expect(result.status != 0)
            Self.expectSafe(result, "\(arguments)")
            // Either quoted escaped, or refused as a name without quoting it.
            #expect(
                result.stderr.contains("<U+001B>[2J<U+0007><U+202E><U+FEFF>")
                    || result.stderr.contains("name contains a control character"),
                "\(arguments): \(result.stderr)")
        }
    }

    @Test func importEscapesTheDeviceName() throws {
        let scratch = try TemporaryFolder()
        let exported = try CLI.run(["export", "tap", "--format", "evemu"], in: scratch.path)
        #expect(exported.status == 0)
        var lines = exported.stdout.components(separatedBy: "\n")
        let nameLine = try #require(lines.firstIndex { $0.hasPrefix("N: ") })
        lines[nameLine] = "N: Evil\u{1B}[2J\u{07}\u{202E}\u{FEFF}Pad"
        try scratch.write("evil.evemu", lines.joined(separator: "\n"))
        let imported = try CLI.run(["import", "evil.evemu", "-o", "out.gesture.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        Self.expectSafe(imported, "import")
        let shown = try CLI.run(["show", "out.gesture.json"], in: scratch.path)
        #expect(shown.status == 0, "\(shown.stderr)")
        Self.expectSafe(shown, "show of the import")

        // A malformed line quoting the same bytes.
        lines[nameLine] = "X: Evil\u{1B}[2J\u{07}\u{202E}\u{FEFF}Pad"
        try scratch.write("bad.evemu", lines.joined(separator: "\n"))
        let refused = try CLI.run(["import", "bad.evemu"], in: scratch.path)
        #expect(refused.status == 1)
        Self.expectSafe(refused, "import of a bad line")
        #expect(refused.stderr.contains("Evil<U+001B>[2J<U+0007><U+202E><U+FEFF>Pad"), "\(refused.stderr)")
    }
}
