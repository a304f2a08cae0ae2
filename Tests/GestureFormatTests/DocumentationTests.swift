import Foundation
import GestureFormat
import GestureModel
import Testing

@Suite struct DocumentationTests {
    /// docs/FORMAT.md, found from this file's path.
    static func formatDocument() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/FORMAT.md"), encoding: .utf8)
    }

    /// The text of the first ```json block of a Markdown document.
    static func firstJSONBlock(_ markdown: String) -> String? {
        var lines: [Substring] = []
        var inside = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if inside {
                if line.hasPrefix("```") { return lines.joined(separator: "\n") + "\n" }
                lines.append(line)
            } else if line == "```json" {
                inside = true
            }
        }
        return nil
    }

    @Test func documentedExampleReadsAndRoundTripsByteForByte() throws {
        let example = try #require(Self.firstJSONBlock(try Self.formatDocument()))
        let gesture = try GestureFileFormat.decode(example, source: "FORMAT.md")
        #expect(GestureFileFormat.encode(gesture) == example)
        #expect(gesture.strokes.count >= 2)
    }
}
