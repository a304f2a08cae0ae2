import CommandKit
import Foundation
import Glibc
import GestureLibrary
import GesturectlCommands
import Testing

/// A long gesture's file (mapped, issue 39) cut short by another program
/// after the command read it and before it used its samples (at that very
/// moment, through ``MappedGestureRead``): every command fails naming the
/// file, no output takes its name, nothing crashes.
extension InProcessCommandTests {
    /// A gesture file of over 1 MiB (so it is mapped) in the scratch folder.
    private func longFile() throws -> String {
        let samples = (0..<50_000).map { "[\($0 * 8333), \(1000 + $0 % 500), 2000]" }.joined(separator: ",\n")
        let text = """
            {"format": 1, "name": "long",
             "device": {"kind": "touchscreen", "x": {"min": 0, "max": 21600, "resolution": 100},
                        "y": {"min": 0, "max": 13500, "resolution": 100}, "slots": 10},
             "strokes": [{"kind": "finger", "samples": [
            \(samples)
            ]}]}

            """
        try FileIO.writeAtomically(Array(text.utf8), to: scratch.path + "/long.gesture.json")
        return "long.gesture.json"
    }

    /// Cuts the file to its first page as soon as it was read.
    private static let cut = MappedGestureRead { path in _ = truncate(path, 4_096) }

    private static let changed = "gesturectl: error: long.gesture.json: changed while it was read (cut short by another program)"

    @Test(
        "A mapped file cut short before its samples are used: no output, the file named",
        arguments: [
            ["transform", "long.gesture.json", "--speed", "2", "-o", "out.json"],
            ["transform", "long.gesture.json", "--speed", "2", "--save", "out"],
            ["export", "long.gesture.json", "--format", "evemu", "-o", "out.json"],
            ["merge", "long.gesture.json", "long.gesture.json", "-o", "out.json"],
            ["save", "long.gesture.json", "out"],
        ])
    func cutBeforeCommit(arguments: [String]) async throws {
        _ = try longFile()
        let result = await run(arguments, mapped: Self.cut)
        #expect(result.status == 1)
        // save names the file as it reads it: ./FILE.
        let changed = arguments[0] == "save" ? Self.changed.replacingOccurrences(of: "r: long", with: "r: ./long") : Self.changed
        #expect(result.standardError == changed + "; nothing written\n", "\(arguments)")
        #expect(!FileIO.exists(scratch.path + "/out.json"))
        #expect(!FileIO.exists(scratch.path + "/library/out.gesture.json"))
        #expect(try FileIO.contentsOfDirectory(scratch.path).filter { $0.hasPrefix(".gesturectl-") } == [])
    }

    @Test("Printed from a file cut short: exit 1, saying so")
    func cutWhilePrinting() async throws {
        _ = try longFile()
        for arguments in [["show", "long.gesture.json"], ["export", "long.gesture.json", "--format", "evemu"]] {
            _ = try longFile()
            let result = await run(arguments, mapped: Self.cut)
            #expect(result.status == 1)
            // "nothing written" when the zeros made the command fail before it printed.
            let consequences = ["what was printed from it is not to be trusted", "nothing written"]
            #expect(consequences.contains { result.standardError == Self.changed + "; \($0)\n" }, "\(arguments): \(result.standardError)")
        }
    }

    @Test("A play of a file cut short does not crash, and fails naming it")
    func cutWhilePlaying() async throws {
        _ = try longFile()
        let result = await run(["play", "long.gesture.json", "--lead-in", "0", "--linger", "0"], mapped: Self.cut)
        #expect(result.status == 1)
        #expect(result.standardError.contains(Self.changed), "\(result.standardError)")
    }
}
