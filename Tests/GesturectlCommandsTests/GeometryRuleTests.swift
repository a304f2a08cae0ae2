import Foundation
import Testing
import TestSupport

/// Issue 7 items 5 and 14 (first bullet): every command follows FORMAT.md's
/// one rule for size, resolution and axes, and never presents invented
/// millimetres.
@Suite struct GeometryRuleTests {
    /// A 40 mm swipe right on the synth default (216 × 135 mm, 100 units/mm).
    static func swipe(in scratch: TemporaryFolder) throws -> String {
        let made = try CLI.run(["synth", "swipe", "--direction", "right", "--distance", "40"], in: scratch.path)
        #expect(made.status == 0, "\(made.stderr)")
        return made.stdout
    }

    /// `text` with width_mm and height_mm 0 (unknown).
    static func sizeZero(_ text: String) -> String {
        text.replacingOccurrences(of: "\"width_mm\": 216", with: "\"width_mm\": 0")
            .replacingOccurrences(of: "\"height_mm\": 135", with: "\"height_mm\": 0")
    }

    @Test func sizeZeroWithAResolutionIsMeasuredByTheResolution() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("z.json", Self.sizeZero(try Self.swipe(in: scratch)))
        // Was "4000 mm".
        let described = try CLI.run(["describe", "z.json"], in: scratch.path)
        #expect(described.stdout == "1 finger · swipe right · 0.25 s · 40 mm\n")
        let shown = try CLI.run(["show", "z.json"], in: scratch.path)
        #expect(shown.stdout.contains("; touchscreen 216 × 135 mm (from the resolution)\n"))
        let facts = try CLI.run(["describe", "--json", "z.json"], in: scratch.path)
        #expect(facts.stdout.contains("\"width_mm\": 216, \"height_mm\": 135, \"size_from\": \"resolution\""), "\(facts.stdout)")
        // Was width_mm 12150: the result stays "size from the resolution".
        let fitted = try CLI.run(["transform", "z.json", "--fit", "9:16", "-o", "fit.json"], in: scratch.path)
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let text = try scratch.read("fit.json")
        #expect(text.contains("\"x\": { \"min\": 0, \"max\": 12150, \"resolution\": 100 }"))
        #expect(text.contains("\"width_mm\": 0,") && text.contains("\"height_mm\": 0,"))
        #expect(try CLI.run(["validate", "fit.json"], in: scratch.path).status == 0)
    }

    @Test func aSizeThatDisagreesWithTheResolutionIsRefusedNamingTheField() throws {
        let scratch = try TemporaryFolder()
        let text = try Self.swipe(in: scratch).replacingOccurrences(of: "\"width_mm\": 216", with: "\"width_mm\": 300")
        try scratch.write("bad.json", text)
        let result = try CLI.run(["validate", "bad.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "gesturectl: error: bad.json:9: device width_mm 300 mm disagrees with the x axis: 21600 units at resolution 100 units/mm are 216 mm (they must agree within 1 %, or set width_mm or the resolution to 0 for unknown)\n")
    }

    @Test func unknownSizeGivesPercentAndNotesAssumedMillimetres() throws {
        let scratch = try TemporaryFolder()
        let unknown = Self.sizeZero(try Self.swipe(in: scratch))
            .replacingOccurrences(of: "\"resolution\": 100", with: "\"resolution\": 0")
        try scratch.write("u.json", unknown)
        #expect(try CLI.run(["describe", "u.json"], in: scratch.path).stdout == "1 finger · swipe right · 0.25 s · 19 % of the width\n")
        #expect(try CLI.run(["show", "u.json"], in: scratch.path).stdout.contains("; touchscreen, size unknown\n"))
        let facts = try CLI.run(["describe", "--json", "u.json"], in: scratch.path)
        #expect(facts.stdout.contains("\"width_mm\": null, \"height_mm\": null, \"size_from\": \"unknown\""), "\(facts.stdout)")
        let fingers = try CLI.run(["fingers", "u.json", "2"], in: scratch.path)
        #expect(fingers.status == 0, "\(fingers.stderr)")
        #expect(
            fingers.stderr
                == "gesturectl: note: u.json has no known size (width_mm/height_mm 0 and no resolution); for --spacing its surface is assumed to be 216 × 135 mm (see docs/FORMAT.md)\n")
        let like = try CLI.run(["synth", "tap", "--like", "u.json"], in: scratch.path)
        #expect(like.status == 0)
        #expect(like.stderr.contains("for --like its surface is assumed to be 216 × 135 mm"))
        let at = try CLI.run(["play", "--print", "u.json", "--at", "10,10"], in: scratch.path)
        #expect(at.stderr.contains("u.json has no known size (width_mm/height_mm 0 and no resolution); for --at its surface is assumed to be 216 × 135 mm"))
        let atPercent = try CLI.run(["play", "--print", "u.json", "--at", "50%,50%"], in: scratch.path)
        #expect(!atPercent.stderr.contains("no known size"))
        let physical = try CLI.run(["play", "--print", "u.json", "--physical-size"], in: scratch.path)
        #expect(physical.stderr.contains("--physical-size cannot keep it; it plays by its place on the surface"))
        let moved = try CLI.run(["transform", "u.json", "--translate", "5,5"], in: scratch.path)
        #expect(moved.stderr.contains("for --translate its surface is assumed to be 216 × 135 mm"))
        // Merging keeps a centred tap centred, and says how it was placed.
        let tap = try CLI.run(["synth", "tap", "-o", "t.json"], in: scratch.path)
        #expect(tap.status == 0)
        try scratch.write("ut.json", try scratch.read("t.json").replacingOccurrences(of: "\"resolution\": 100", with: "\"resolution\": 0")
            .replacingOccurrences(of: "\"width_mm\": 216", with: "\"width_mm\": 0").replacingOccurrences(of: "\"height_mm\": 135", with: "\"height_mm\": 0"))
        let merged = try CLI.run(["merge", "--stagger", "100ms", "t.json", "ut.json"], in: scratch.path)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stderr.contains("gesture 2: its surface size is unknown"))
        #expect(!merged.stdout.contains("[100000, 21600, 13500]"))
        #expect(merged.stdout.contains("[100000, 10800, 6750]"))
    }

    /// An N-Trig-like panel with resolution 0 (unknown), as older devices
    /// report: a drag across it was "11402 mm".
    static let unresolvedPanel = EvemuFixture(
        name: "N-Trig MultiTouch", bus: 0x03, vendor: 0x1b96, product: 0x0001, version: 0x0110,
        properties: [1],
        codes: [EvemuFixture.key: [0x14a]],
        axes: [.init(0x00, 0, 9600), .init(0x01, 0, 7200)],
        events: """
            E: 0.000001 0003 0000 1000
            E: 0.000001 0003 0001 3600
            E: 0.000001 0001 014a 0001
            E: 0.000001 0000 0000 0000
            E: 0.500000 0003 0000 5000
            E: 0.500000 0000 0000 0000
            E: 1.000000 0003 0000 8680
            E: 1.000000 0000 0000 0000
            E: 1.570000 0001 014a 0000
            E: 1.570000 0000 0000 0000
            """).text

    @Test func anImportWithoutResolutionIsDescribedInPercent() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("ntrig.evemu", Self.unresolvedPanel)
        let imported = try CLI.run(["import", "ntrig.evemu", "-o", "n.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let described = try CLI.run(["describe", "n.json"], in: scratch.path)
        #expect(described.stdout == "1 finger · swipe right · 1.57 s · 80 % of the width\n")
    }

    /// A Wacom Intuos4-like pen tablet reporting resolution 0: a stylus drag
    /// was "29044 mm".
    static let unresolvedTablet = EvemuFixture(
        name: "Wacom Intuos4 6x9", bus: 0x03, vendor: 0x056a, product: 0x00b9, version: 0x0102,
        codes: [EvemuFixture.key: [0x140, 0x14a, 0x14b]],
        axes: [.init(0x00, 0, 44704), .init(0x01, 0, 27940), .init(0x18, 0, 2047)],
        events: """
            E: 0.000001 0003 0000 5000
            E: 0.000001 0003 0001 14000
            E: 0.000001 0001 0140 0001
            E: 0.000001 0000 0000 0000
            E: 0.010000 0001 014a 0001
            E: 0.010000 0003 0018 0800
            E: 0.010000 0000 0000 0000
            E: 0.500000 0003 0000 34044
            E: 0.500000 0000 0000 0000
            E: 0.800000 0001 014a 0000
            E: 0.800000 0003 0018 0000
            E: 0.800000 0000 0000 0000
            """).text

    @Test func aPenTabletWithoutResolutionIsDescribedInPercent() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("wacom.evemu", Self.unresolvedTablet)
        let imported = try CLI.run(["import", "wacom.evemu", "-o", "w.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let described = try CLI.run(["describe", "w.json"], in: scratch.path)
        #expect(described.stdout == "pen · swipe right · 0.79 s · 65 % of the width\n")
    }
}
