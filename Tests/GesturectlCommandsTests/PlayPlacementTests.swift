import Foundation
import Testing
import TestSupport

/// `play --at X,Y --scale F --rotate DEG`, through the built binary: `--print`
/// shows where the contact lands without uinput, and bad values are usage
/// errors naming the option.
@Suite struct PlayPlacementTests {
    /// The (x, y) of each frame that sets a position, from `--print`'s
    /// evemu text (values not written stay as they were, 0 at first).
    static func positions(_ evemu: String) -> [[Int]] {
        var x = 0
        var y = 0
        var moved = false
        var result: [[Int]] = []
        for line in evemu.split(separator: "\n") where line.hasPrefix("E: ") {
            let fields = line.split(separator: " ")
            guard fields.count >= 5, let value = Int(fields[4].split(separator: "\t")[0]) else { continue }
            switch (fields[2], fields[3]) {
            case ("0003", "0035"): x = value; moved = true
            case ("0003", "0036"): y = value; moved = true
            case ("0000", "0000"):
                if moved { result.append([x, y]) }
                moved = false
            default: break
            }
        }
        return result
    }

    // The built-in tap is one contact at the centre of a 216 × 135 mm
    // touchscreen, axes 0…21600 × 0…13500, played on a device of the same axes.

    @Test func atInPercentsPutsTheTapAtThatFractionOfTheSurface() throws {
        let result = try CLI.run(["play", "tap", "--at", "80%,90%", "--print"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.positions(result.stdout) == [[17_280, 12_150]])
        #expect(result.stderr == "")
    }

    @Test func atInMillimetresIsFromTheTopLeftCorner() throws {
        let result = try CLI.run(["play", "tap", "--at", "54,33.75", "--print"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.positions(result.stdout) == [[5_400, 3_375]])
    }

    @Test func withoutPlacementTheGesturePlaysWhereItIs() throws {
        let result = try CLI.run(["play", "tap", "--print"])
        #expect(Self.positions(result.stdout) == [[10_800, 6_750]])
    }

    @Test func scaleAndRotateAreAboutTheCentreThenItMovesToAt() throws {
        // A 20 mm swipe to the right on a 100 × 50 mm surface (10 units/mm),
        // centred at 20, 25 mm; played on a device with the same axes.
        let scratch = try TemporaryFolder()
        try scratch.write(
            "swipe.gesture.json",
            """
            {"format": 1, "name": "swipe", "device": {"kind": "touchscreen",
              "x": {"min": 0, "max": 1000, "resolution": 10}, "y": {"min": 0, "max": 500, "resolution": 10}, "slots": 1},
             "strokes": [{"kind": "finger", "samples": [[0, 100, 250], [10000, 300, 250]]}]}
            """)
        let plain = try CLI.run(["play", "swipe.gesture.json", "--print"], in: scratch.path)
        #expect(Self.positions(plain.stdout) == [[100, 250], [300, 250]])
        // Half as long, turned clockwise (now downwards), centre at 50%, 50% = 50, 25 mm.
        let placed = try CLI.run(
            ["play", "swipe.gesture.json", "--at", "50%,50%", "--scale", "0.5", "--rotate", "90", "--print"], in: scratch.path)
        #expect(placed.status == 0, "\(placed.stderr)")
        #expect(Self.positions(placed.stdout) == [[500, 200], [500, 300]])
        // Without --at the centre stays: turned -90° about 20, 25 mm.
        let turned = try CLI.run(["play", "swipe.gesture.json", "--rotate=-90", "--print"], in: scratch.path)
        #expect(Self.positions(turned.stdout) == [[200, 350], [200, 150]])
    }

    @Test func samplesPushedOffTheSurfaceAreClippedWithAWarning() throws {
        let result = try CLI.run(["play", "pinch-in", "--at", "0%,50%", "--print"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("gesturectl: warning: "))
        #expect(result.stderr.contains("fell outside the surface and were clipped to its edge"))
    }

    @Test(arguments: [
        (["--at", "5"], "--at: needs X,Y: two numbers in mm or percents of the surface (e.g. 40,25 or 80%,90%), not \"5\""),
        (["--at", "120%,5%"], "--at: X 120% is outside the surface (0% to 100%)"),
        (["--at", "5%,-1%"], "--at: Y -1% is outside the surface (0% to 100%)"),
        (["--at", "300,5"], "--at: X 300 mm is outside the surface (0 to 216 mm; or use 0% to 100%)"),
        (["--at", "nan,5"], "--at: X \"nan\" is not a number of mm or a percent like 80%"),
        (["--at", "5,inf%"], "--at: Y \"inf%\" is not a number of mm or a percent like 90%"),
        (["--scale", "0"], "--scale: the scale must be a finite number above 0, not 0"),
        (["--scale", "-2"], "--scale: the scale must be a finite number above 0, not -2"),
        (["--scale", "inf"], "--scale: \"inf\" is not a number"),
        (["--rotate", "nan"], "--rotate: \"nan\" is not a number"),
    ])
    func badValuesAreUsageErrorsNamingTheOption(options: [String], message: String) throws {
        let result = try CLI.run(["play", "tap", "--print"] + options)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("gesturectl: error: \(message)\nusage: gesturectl play"), "\(result.stderr)")
    }

    @Test func badValuesAreRefusedBeforeTheDaemonIsAsked() throws {
        let result = try CLI.run(["--socket", "/nonexistent/g.sock", "play", "tap", "--scale", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --scale: the scale must be a finite number above 0, not 0"))
    }

    @Test func helpTeachesThePlacement() throws {
        let result = try CLI.run(["help", "play"])
        #expect(result.status == 0)
        for text in ["--at <x,y>", "--scale <factor>", "--rotate <degrees>", "gesturectl play tap --at 80%,90%", "percents of the surface"] {
            #expect(result.stdout.contains(text), "help play mentions \(text)")
        }
    }
}
