import Testing
import TestSupport

/// `play --start-on-fd` and `press --start-on-fd` where the kernel is not
/// needed: a descriptor that is not open is refused before any device is
/// made, and the help says how to use it. (Held plays on a real kernel: every
/// Tests/Integration case that observes a play starts it this way.)
@Suite struct PlayStartGateTests {
    @Test(arguments: [["play", "tap"], ["press", "volume-up"]])
    func aDescriptorThatIsNotOpenIsRefused(command: [String]) throws {
        let result = try CLI.run(command + ["--start-on-fd", "97"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("gesturectl: error: --start-on-fd 97: descriptor 97 is not open"))
    }

    @Test func aNegativeDescriptorIsAUsageError() throws {
        let result = try CLI.run(["play", "tap", "--start-on-fd", "-1"])
        #expect(result.status == 2)
    }

    @Test func helpTeachesItAndTheCatchUp() throws {
        let result = try CLI.run(["help", "play"])
        #expect(result.stdout.contains("--start-on-fd N holds the play on its ready device"))
        #expect(result.stdout.contains("stall of S puts the play back on its deadlines after 2 × S"))
        #expect(result.stdout.contains("--start-on-fd 3 3<>gate.fifo"))
    }
}
