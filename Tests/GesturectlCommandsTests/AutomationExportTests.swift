import Foundation
import Testing
import TestSupport

/// Issue 11 item 5: `export --format android-uinput|webdriver` and
/// `import` of both, through the built binary.
@Suite struct AutomationExportTests {
    /// A gesture file's strokes: per stroke its samples as (time from the
    /// gesture's first sample, x and y as fractions of the axes).
    static func strokes(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[(Double, Double, Double)]] {
        let gesture = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        let device = try #require(gesture["device"] as? [String: Any], sourceLocation: sourceLocation)
        func axis(_ name: String) throws -> (Double, Double) {
            let axis = try #require(device[name] as? [String: Any], sourceLocation: sourceLocation)
            return (Double(axis["min"] as? Int ?? 0), Double(axis["max"] as? Int ?? 1))
        }
        let (xMin, xMax) = try axis("x")
        let (yMin, yMax) = try axis("y")
        let strokes = try #require(gesture["strokes"] as? [[String: Any]], sourceLocation: sourceLocation)
        let samples = strokes.map { ($0["samples"] as? [[Double]]) ?? [] }
        let start = samples.compactMap { $0.first?[0] }.min() ?? 0
        return samples.map { list in
            list.map { (($0[0] - start) / 1_000, ($0[1] - xMin) / (xMax - xMin), ($0[2] - yMin) / (yMax - yMin)) }
        }
    }

    /// The gesture `export FORMAT` then `import --strict` gives.
    static func roundTrip(_ gesture: String, _ arguments: [String], importing: [String] = [], in scratch: TemporaryFolder) throws -> String {
        let exported = try CLI.run(["export", gesture, "-o", "out.json", "--force"] + arguments, in: scratch.path)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr == "")
        let imported = try CLI.run(["import", "out.json", "--strict"] + importing, in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr == "")
        return imported.stdout
    }

    @Test(arguments: ["three-finger-swipe-left", "pinch-in", "double-tap"])
    func exportedAndImportedComeBackWithTheSameStrokes(gesture: String) throws {
        let scratch = try TemporaryFolder()
        // The reference: the same frames through evemu, whose round trip is exact.
        let reference = try Self.strokes(try Self.roundTrip(gesture, ["--format", "evemu"], in: scratch))
        let android = try Self.strokes(try Self.roundTrip(gesture, ["--format", "android-uinput"], in: scratch))
        let webdriver = try Self.strokes(
            try Self.roundTrip(
                gesture, ["--format", "webdriver", "--viewport", "1080x1920", "--move-cost-ms", "0"], importing: ["--viewport", "1080x1920"],
                in: scratch))
        #expect(android.count == reference.count)
        for (got, want) in zip(android, reference) {
            #expect(got.count == want.count)
            for (a, b) in zip(got, want) {
                // Times in whole ms (rounded from the start); positions exact.
                #expect(abs(a.0 - b.0) <= 0.5 + 1e-9, "android-uinput: time \(a.0) ms, expected \(b.0) ms")
                #expect(abs(a.1 - b.1) <= 1e-4 && abs(a.2 - b.2) <= 1e-4, "android-uinput: (\(a.1), \(a.2)), expected (\(b.1), \(b.2))")
            }
        }
        // WebDriver keeps only the frames the path needs (issue 24 item 1):
        // each stroke comes back with its first and last samples, every
        // sample it keeps is one of the file's (time within half a ms,
        // position within half a pixel), and every sample of the file is
        // within a pixel of the straight, evenly timed line between the kept
        // ones around it.
        let pixel = (1 / 1079.0, 1 / 1919.0)
        #expect(webdriver.count == reference.count)
        for (got, want) in zip(webdriver, reference) {
            #expect(got.count >= 2 && got.count <= want.count)
            #expect(abs((got.first?.0 ?? -1) - (want.first?.0 ?? 0)) <= 0.5 + 1e-9)
            #expect(abs((got.last?.0 ?? -1) - (want.last?.0 ?? 0)) <= 0.5 + 1e-9)
            for a in got {
                let b = try #require(want.min { abs($0.0 - a.0) < abs($1.0 - a.0) })
                #expect(abs(a.0 - b.0) <= 0.5 + 1e-9, "webdriver: time \(a.0) ms is no sample's")
                #expect(abs(a.1 - b.1) <= pixel.0 / 2 + 1e-4 && abs(a.2 - b.2) <= pixel.1 / 2 + 1e-4, "webdriver: (\(a.1), \(a.2)) at \(a.0) ms")
            }
            for b in want {
                guard let after = got.firstIndex(where: { $0.0 >= b.0 - 0.5 }) else { continue }
                let (p, q) = (got[max(after - 1, 0)], got[after])
                let fraction = q.0 == p.0 ? 1 : min(max((b.0 - p.0) / (q.0 - p.0), 0), 1)
                let x = p.1 + (q.1 - p.1) * fraction
                let y = p.2 + (q.2 - p.2) * fraction
                #expect(abs(x - b.1) <= pixel.0 + 1e-4 && abs(y - b.2) <= pixel.1 + 1e-4, "webdriver: the sample at \(b.0) ms is off the kept line")
            }
        }
    }

    /// Issue 24 item 1: `--tick-ms` sets how far apart moves kept for a
    /// bend are; lines need none.
    @Test func tickMsKeepsMoreOfACurve() throws {
        let scratch = try TemporaryFolder()
        func moves(_ arguments: [String]) throws -> Int {
            let result = try CLI.run(["export", "rotate", "--format", "webdriver"] + arguments, in: scratch.path)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.components(separatedBy: "\"pointerMove\"").count - 1
        }
        let sparse = try moves(["--moves", "sparse"])
        let everyBend = try moves(["--tick-ms", "0"])
        #expect(sparse < everyBend, "\(sparse) moves sparse, \(everyBend) with --tick-ms 0")
        // --tick-ms alone means the sparse form (issue 39: stepped moves come every display frame).
        #expect(try moves(["--tick-ms", "250"]) == sparse)
        let stepped = try CLI.run(["export", "rotate", "--format", "webdriver", "--moves", "stepped", "--tick-ms", "10"], in: scratch.path)
        #expect(stepped.status == 2)
        #expect(stepped.stderr.contains("--tick-ms is for --moves sparse or gliding"), "\(stepped.stderr)")
        let misplaced = try CLI.run(["export", "tap", "--format", "evemu", "--tick-ms", "10"], in: scratch.path)
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.hasPrefix("gesturectl: error: --tick-ms is for --format webdriver (the time between its moves), not evemu\n"))
    }

    /// `--moves gliding`: the same moves, each lasting until its point is
    /// due (for drivers that interpolate); refused with another format.
    @Test func movesGlidingTimesTheMoves() throws {
        let scratch = try TemporaryFolder()
        let stepped = try CLI.run(["export", "rotate", "--format", "webdriver", "--moves", "sparse"], in: scratch.path)
        let gliding = try CLI.run(["export", "rotate", "--format", "webdriver", "--moves", "gliding"], in: scratch.path)
        #expect(stepped.status == 0 && gliding.status == 0, "\(gliding.stderr)")
        func count(_ text: String, _ pattern: String) -> Int { text.components(separatedBy: pattern).count - 1 }
        #expect(count(gliding.stdout, "\"pointerMove\"") == count(stepped.stdout, "\"pointerMove\""))
        #expect(count(gliding.stdout, "\"type\": \"pointerMove\", \"duration\": 0,") < count(stepped.stdout, "\"type\": \"pointerMove\", \"duration\": 0,"))
        // Both read back as the same gesture.
        for text in [stepped.stdout, gliding.stdout] {
            let file = scratch.path + "/actions.json"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try CLI.run(["import", file, "-o", "-"], in: scratch.path)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let misplaced = try CLI.run(["export", "tap", "--format", "libinput", "--moves", "gliding"], in: scratch.path)
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.hasPrefix("gesturectl: error: --moves gliding is for --format webdriver (how its moves are timed), not libinput\n"))
    }

    /// Issue 39: by default a moving finger gets a move every display
    /// frame (1/60 s) of its movement, at the file's positions then, each
    /// after a pause that leaves chromedriver's cost of a move (16 ms) to
    /// make up the frame: a 250 ms swipe is 15 moves a finger, not one jump.
    @Test func movesComeEveryDisplayFrame() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["export", "three-finger-swipe-up", "--format", "webdriver"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sources = try #require(payload["actions"] as? [[String: Any]])
        #expect(sources.count == 3)
        for source in sources {
            let actions = try #require(source["actions"] as? [[String: Any]])
            var down = false
            var moves: [(x: Int, y: Int)] = []
            var pauses: [Int] = []
            var pause = 0
            for action in actions {
                switch action["type"] as? String {
                case "pointerDown": down = true
                case "pointerUp": down = false
                case "pause": pause += action["duration"] as? Int ?? 0
                case "pointerMove" where down:
                    moves.append((action["x"] as? Int ?? -1, action["y"] as? Int ?? -1))
                    pauses.append(pause)
                    pause = 0
                default: pause = 0
                }
            }
            // 250 ms of movement: 15 display frames.
            #expect(moves.count == 15, "\(moves.count) moves")
            // Each a frame after the last (17 or 16 ms, less chromedriver's 16).
            #expect(pauses.allSatisfy { $0 <= 1 }, "\(pauses)")
            // Straight up, evenly: the same column, steps of 10 or 11 px.
            #expect(Set(moves.map(\.x)).count == 1)
            let steps = zip(moves, moves.dropFirst()).map { $0.y - $1.y }
            #expect(steps.allSatisfy { (9...11).contains($0) }, "\(steps)")
        }
        // A still finger (a long press) makes no move at all.
        let still = try CLI.run(["export", "long-press", "--format", "webdriver"], in: scratch.path)
        #expect(still.status == 0)
        #expect(still.stdout.components(separatedBy: "\"pointerMove\"").count - 1 == 1, "only the move to where it touches")
    }

    /// `--move-cost-ms` (default 16, chromedriver's): taken out of the
    /// pause before each move of a finger that is down; 0 keeps the file's times.
    @Test func moveCostShortensThePauseBeforeEachMove() throws {
        let scratch = try TemporaryFolder()
        func pauses(_ arguments: [String]) throws -> [Int] {
            let result = try CLI.run(
                ["export", "three-finger-swipe-left", "--format", "webdriver", "--moves", "sparse"] + arguments, in: scratch.path)
            #expect(result.status == 0, "\(result.stderr)")
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let first = try #require((payload["actions"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]])
            return first.filter { $0["type"] as? String == "pause" }.compactMap { $0["duration"] as? Int }.filter { $0 > 0 }
        }
        let honest = try pauses(["--move-cost-ms", "0"])
        let byDefault = try pauses([])
        // A straight swipe: the pause before its one move, then the pause before the lift (no move after it).
        #expect(honest.count == 2 && byDefault.count == 2, "\(byDefault) against \(honest)")
        #expect(byDefault.first == honest.first.map { $0 - 16 } && byDefault.last == honest.last)
        #expect(try pauses(["--move-cost-ms", "16"]) == byDefault)
        let gliding = try CLI.run(
            ["export", "tap", "--format", "webdriver", "--moves", "gliding", "--move-cost-ms", "16"], in: scratch.path)
        #expect(gliding.status == 2)
        #expect(gliding.stderr.contains("--move-cost-ms is for stepped moves"))
        let misplaced = try CLI.run(["export", "tap", "--format", "evemu", "--move-cost-ms", "16"], in: scratch.path)
        #expect(misplaced.status == 2)
    }

    @Test func theDescriptionsMatchAfterTheRoundTrip() throws {
        let scratch = try TemporaryFolder()
        let android = try Self.roundTrip("three-finger-swipe-left", ["--format", "android-uinput"], in: scratch)
        #expect(try CLI.run(["describe", "-"], stdin: android).stdout == "3 fingers · swipe left · 0.25 s · 40 mm\n")
        // WebDriver knows no millimetres: the surface is in pixels, its size unknown.
        let webdriver = try Self.roundTrip("three-finger-swipe-left", ["--format", "webdriver", "--move-cost-ms", "0"], in: scratch)
        #expect(try CLI.run(["describe", "-"], stdin: webdriver).stdout.hasPrefix("3 fingers · swipe left · 0.25 s"))
    }

    @Test(arguments: ["touchpad", "mouse", "tablet"])
    func everyDeviceKindRoundTripsThroughAndroidAsThroughEvemu(kind: String) throws {
        let scratch = try TemporaryFolder()
        let evemu = try Self.roundTrip("tap", ["--format", "evemu", "--as", kind], in: scratch)
        let android = try Self.roundTrip("tap", ["--format", "android-uinput", "--as", kind], in: scratch)
        let strokes = try Self.strokes(android)
        let reference = try Self.strokes(evemu)
        #expect(strokes.map(\.count) == reference.map(\.count))
        #expect(try CLI.run(["describe", "-"], stdin: android).stdout == CLI.run(["describe", "-"], stdin: evemu).stdout)
    }

    @Test func theDefaultViewportIsTheSurfaceAt96PixelsPerInch() throws {
        let scratch = try TemporaryFolder()
        let result = try CLI.run(["export", "tap", "--format", "webdriver"], in: scratch.path)
        #expect(result.status == 0)
        // The built-in touchscreen is 216 × 135 mm: 816 × 510 CSS pixels; a tap in its middle.
        #expect(result.stdout.contains("{\"type\": \"pointerMove\", \"duration\": 0, \"origin\": \"viewport\", \"x\": 408, \"y\": 255}"))
    }

    @Test func theAndroidFileRegistersATouchscreen() throws {
        let result = try CLI.run(["export", "tap", "--format", "android-uinput"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("{\"id\": 1, \"command\": \"register\", \"name\": \"gesturectl virtual touchscreen\""))
        #expect(result.stdout.contains("{\"type\": 110, \"data\": [1]}"), "INPUT_PROP_DIRECT")
        #expect(result.stdout.contains("\n{\"id\": 1, \"command\": \"delay\", \"duration\": 500}\n"))
    }

    @Test(
        arguments: [
            (["export", "tap", "--format", "webdriver", "--viewport", "big"],
             "gesturectl: error: --viewport: \"big\" is not a viewport size like 1080x1920 (width and height in CSS pixels, 1 to 100000)\n"),
            (["export", "tap", "--format", "webdriver", "--viewport", "0x100"],
             "gesturectl: error: --viewport: \"0x100\" is not a viewport size like 1080x1920 (width and height in CSS pixels, 1 to 100000)\n"),
            (["export", "tap", "--format", "evemu", "--viewport", "100x100"],
             "gesturectl: error: --viewport is for --format webdriver (positions in CSS pixels), not evemu\n"),
            (["export", "tap", "--format", "webdriver", "--as", "mouse"],
             "gesturectl: error: --format webdriver plays touch pointers, one per finger: it needs --as touchscreen, not mouse\n"),
            (["import", "in.evemu", "--viewport", "100x100"],
             "gesturectl: error: --viewport: in.evemu is an evemu recording, which carries its own device size; --viewport is for WebDriver actions payloads\n"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let scratch = try TemporaryFolder()
        #expect(try CLI.run(["export", "tap", "--format", "evemu", "-o", "in.evemu"], in: scratch.path).status == 0)
        let result = try CLI.run(arguments, in: scratch.path)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stdout == "")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let result = try CLI.run(["export", "tap", "--format", "android"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("android-uinput"), "the choices are listed: \(result.stderr)")
    }

    @Test func badFilesNameTheFileAndLine() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("a.json", "{\"id\": 1, \"command\": \"register\", \"name\": \"x\", \"configuration\": []}\n{\"id\": 1, \"command\": \"launch\"}\n")
        let android = try CLI.run(["import", "a.json"], in: scratch.path)
        #expect(android.status == 1)
        #expect(android.stderr == "gesturectl: error: a.json:2: unknown command \"launch\" (known: register, delay, inject, sync)\n")
        try scratch.write("w.json", "{\"actions\": [{\"type\": \"pointer\", \"actions\": [\n{\"type\": \"pointerMove\", \"x\": \"\\u001b[31m\"}]}]}")
        let webdriver = try CLI.run(["import", "w.json"], in: scratch.path)
        #expect(webdriver.status == 1)
        #expect(webdriver.stderr == "gesturectl: error: w.json:2: actions[0].actions[0].x must be a number, not a string\n")
    }

    @Test func positionsBeyondTheViewportAreRepairedOrRefused() throws {
        let scratch = try TemporaryFolder()
        try scratch.write(
            "w.json",
            """
            {"actions": [{"type": "pointer", "id": "f", "parameters": {"pointerType": "touch"}, "actions": [
              {"type": "pointerMove", "x": 10, "y": 10}, {"type": "pointerDown", "button": 0},
              {"type": "pointerMove", "duration": 100, "x": 150, "y": 10}, {"type": "pointerUp", "button": 0}]}]}
            """)
        let repaired = try CLI.run(["import", "w.json", "--viewport", "100x100"], in: scratch.path)
        #expect(repaired.status == 0)
        #expect(repaired.stderr.contains("warning: w.json: x of 1 sample lay outside the axis range 0…99 (as far as 150)"), "\(repaired.stderr)")
        let refused = try CLI.run(["import", "w.json", "--viewport", "100x100", "--strict"], in: scratch.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused (--strict)"))
        // Without --viewport, the smallest that holds every position: nothing to repair.
        let fitted = try CLI.run(["import", "w.json", "--strict"], in: scratch.path)
        #expect(fitted.status == 0, "\(fitted.stderr)")
    }

    /// Issue 24 item 5: a tap at 0, 0 or a swipe along the left edge was
    /// refused ("ABS_MT_POSITION_X has minimum 0, not below maximum 0").
    @Test func touchesOnOneLineOrOnePointImport() throws {
        let scratch = try TemporaryFolder()
        try scratch.write(
            "edge.json",
            """
            {"actions": [{"type": "pointer", "id": "f", "parameters": {"pointerType": "touch"}, "actions": [
              {"type": "pointerMove", "x": 0, "y": 100}, {"type": "pointerDown", "button": 0},
              {"type": "pointerMove", "duration": 200, "x": 0, "y": 600}, {"type": "pointerUp", "button": 0}]}]}
            """)
        let edge = try CLI.run(["import", "edge.json", "--strict", "-o", "edge.gesture.json"], in: scratch.path)
        #expect(edge.status == 0, "\(edge.stderr)")
        #expect(try CLI.run(["describe", "edge.gesture.json"], in: scratch.path).stdout.hasPrefix("1 finger · swipe down"))
        try scratch.write(
            "tap.json",
            """
            {"actions": [{"type": "pointer", "id": "f", "actions": [
              {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 50}, {"type": "pointerUp", "button": 0}]}]}
            """)
        let tap = try CLI.run(["import", "tap.json", "--strict", "-o", "tap.gesture.json"], in: scratch.path)
        #expect(tap.status == 0, "\(tap.stderr)")
        #expect(try CLI.run(["describe", "tap.gesture.json"], in: scratch.path).stdout.hasPrefix("1 finger · tap"))
    }

    /// Issue 24 item 5: reported as "as far as 1000000000", the clamp's limit.
    @Test func relativeMovesAddingUpPastTheLimitAreSaidAsTheSum() throws {
        let scratch = try TemporaryFolder()
        let moves = Array(repeating: "{\"type\": \"pointerMove\", \"origin\": \"pointer\", \"x\": 1000000000}", count: 3)
        try scratch.write(
            "far.json",
            "{\"actions\": [{\"type\": \"pointer\", \"actions\": [{\"type\": \"pointerDown\"},\n"
                + moves.joined(separator: ",\n") + "]}]}")
        let result = try CLI.run(["import", "far.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "gesturectl: error: far.json:3: actions[0].actions[2]: the relative moves add up to x = 2000000000, beyond ±1000000000\n")
    }

    /// Issue 24 item 5: a file cut inside a comment imported with exit 0.
    @Test func anAndroidFileEndingInsideACommentIsAnErrorWithItsLine() throws {
        let scratch = try TemporaryFolder()
        let exported = try CLI.run(["export", "tap", "--format", "android-uinput", "-o", "a.json"], in: scratch.path)
        #expect(exported.status == 0)
        let text = try String(contentsOfFile: scratch.path + "/a.json", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        try scratch.write("cut.json", text + "/* the rest\n{\"id\": 1, \"command\": \"delay\", \"duration\": 5}\n")
        let result = try CLI.run(["import", "cut.json"], in: scratch.path)
        #expect(result.status == 1)
        #expect(
            result.stderr == "gesturectl: error: cut.json:\(lines): a /* comment is never closed: it runs to the end of the file\n",
            "\(result.stderr)")
    }

    @Test func aFailedWriteOfAStreamedWebDriverExportIsReported() throws {
        let result = try CLI.run(["export", "pinch-in", "--format", "webdriver", "-o", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
    }
}
