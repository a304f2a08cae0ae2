import CommandKit
import Testing

/// The manual pages come from the declarations: every shown command has a
/// page, every option its entry with the help's values and default, and
/// roff's special characters never reach the source raw.
@Suite struct ManualPageTests {
    static var toolWithHidden: Tool {
        var tool = sampleTool
        var hidden = Command(name: "secret", abstract: "For scripts.") { _, _ in }
        hidden.isHidden = true
        tool.commands.append(hidden)
        tool.commands[0].options.append(.flag("internal", help: "Hidden.", hidden: true))
        return tool
    }

    let manual = ManualPages(
        tool: toolWithHidden, date: "2026-11-30", sections: ["fail": 8],
        environment: [.init("GESTURECTL_LIBRARY", "The library folder.")],
        files: [.init("/etc/gesturectl/daemon.json", "The configuration.")], seeAlso: ["gesturectl-format(5)"])

    @Test func onePagePerShownCommand() {
        #expect(manual.pages.map(\.fileName) == ["gesturectl.1", "gesturectl-merge.1", "gesturectl-fingers.1", "gesturectl-list.1", "gesturectl-rename.1", "gesturectl-fail.8"])
    }

    @Test func toolPageListsCommandsExitStatusesEnvironmentAndFiles() {
        let text = manual.toolPage.text
        #expect(text.hasPrefix(".TH \"GESTURECTL\" 1 \"2026\\-11\\-30\" \"gesturectl 0.1.0\" \"User Commands\"\n"))
        #expect(text.contains(".TP\n\\fBmerge\\fR\nMerge strokes into one multi\\-finger gesture. See \\fBgesturectl\\-merge\\fR(1).\n"))
        #expect(text.contains(".SS \"Library\""))
        for status in ExitStatus.allCases { #expect(text.contains(".TP\n\\fB\(status.rawValue)\\fR\n")) }
        #expect(text.contains(".SH \"ENVIRONMENT\"\n.TP\n\\fBGESTURECTL_LIBRARY\\fR\nThe library folder.\n"))
        #expect(text.contains(".SH \"FILES\"\n.TP\n\\fB/etc/gesturectl/daemon.json\\fR\n"))
        #expect(text.contains("\\fBgesturectl\\-fail\\fR(8)"))
        #expect(text.contains("\\fBgesturectl\\-format\\fR(5)"))
        #expect(!text.contains("secret"))
    }

    @Test func commandPageHasTheHelpsOptionsAndExamples() {
        let text = manual.page(for: sampleTool.commands[0]).text
        #expect(text.contains(".SH \"SYNOPSIS\"\n.B gesturectl merge\n[\\fIoptions\\fR] \\fIfiles\\fR ...\n"))
        // The same description as --help: values and default.
        #expect(text.contains(".TP\n\\fB\\-\\-align\\fR \\fIedge\\fR\nAlign the strokes by their start or their end. (values: start, end; default: start)\n"))
        #expect(text.contains(".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIfile\\fR\n"))
        // Indented example lines are kept as written.
        #expect(text.contains(".nf\ngesturectl merge a.gesture b.gesture \\-o pinch.gesture\n"))
        #expect(!text.contains("internal"))
    }

    @Test func groupPageDescribesEverySubcommand() {
        let group = Command(
            name: "synth", abstract: "Make gestures.",
            subcommands: [
                Command(name: "tap", abstract: "A tap.", options: [.option("fingers", help: "How many.", type: .integer(in: 1...10))]) { _, _ in },
                Command(name: "swipe", abstract: "A swipe.") { _, _ in },
            ])
        let text = ManualPages(tool: Tool(name: "gesturectl", version: "1", abstract: "x", commands: [group]), date: "d").page(for: group).text
        #expect(text.contains(".B gesturectl synth tap\n[\\fIoptions\\fR]\n.br\n.B gesturectl synth swipe\n"))
        #expect(text.contains(".SS \"gesturectl synth tap\"\nA tap.\n.TP\n\\fB\\-\\-fingers\\fR \\fIfingers\\fR\nHow many. (1 to 10)"))
    }

    @Test func roffSpecialsAreEscaped() {
        let command = Command(
            name: "x", abstract: "Back\\slash and ‘quotes’ × 2.",
            discussion: ".starts with a dot\n'starts with a quote\n\n  .an example with a dot") { _, _ in }
        let text = ManualPages(tool: Tool(name: "t", version: "1", abstract: "a", commands: [command]), date: "d").page(for: command).text
        #expect(text.contains("Back\\eslash and \\[u2018]quotes\\[u2019] \\[u00D7] 2."))
        #expect(text.contains("\n\\&.starts with a dot\n\\&'starts with a quote\n"))
        #expect(text.contains("\n\\&.an example with a dot\n"))
        for line in text.split(separator: "\n") where line.hasPrefix(".") {
            let request = line.dropFirst()
            let known = ["TH", "SH", "SS", "TP", "PP", "RS", "RE", "nf", "fi", "B ", "br", "nh", "ad"].contains(where: { request.hasPrefix($0) })
            #expect(known, "\(line)")
        }
        let ascii = text.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
    }

    @Test func datesFromSourceDateEpoch() {
        #expect(ManualPages.date(secondsSince1970: 0) == "1970-01-01")
        #expect(ManualPages.date(secondsSince1970: 1_796_083_200) == "2026-12-01")
        #expect(ManualPages.date(secondsSince1970: 951_782_400) == "2000-02-29")
        #expect(ManualPages.date(secondsSince1970: -1) == "1969-12-31")
    }

    @Test func markdownBecomesAPage() {
        let markdown = """
            # The format

            A file is **JSON** with `keys`; see [Validation](#validation).

            ## Keys

            | Key | Type | Meaning |
            |-----|------|---------|
            | `format` | integer | The version. |

            - one item
              continued
            1. numbered

            ```json
            {".": 1}
            ```
            """
        let text = ManualPages.markdownPage(name: "t-format", section: 5, date: "d", source: "t 1", summary: "the format", markdown: markdown).text
        #expect(text.contains(".SH \"NAME\"\nt\\-format \\- the format\n.SH \"DESCRIPTION\"\n.PP\nA file is \\fBJSON\\fR with \\fBkeys\\fR; see Validation.\n"))
        #expect(text.contains(".SH \"KEYS\"\n.TP\n\\fBformat\\fR\nType: integer; The version.\n"))
        #expect(text.contains(".IP \\(bu 4\none item\ncontinued\n.IP 1. 4\nnumbered\n"))
        #expect(text.contains(".nf\n{\".\": 1}\n.fi\n"))
        #expect(text.contains("\"File Formats\""))
    }
}
