import GestureModel
import InputSystem
import Testing

@testable import GestureInterop

/// The time origin the evemu, libinput record and Android writers share.
@Suite struct TimeOriginTests {
    @Test func countsFromTheFirstTimeNeverBelowZero() {
        var origin = TimeOrigin()
        #expect(origin.elapsed(Microseconds(5_000), ceiling: .max) == 0)
        #expect(origin.elapsed(Microseconds(7_500), ceiling: .max) == 2_500)
        // A frame earlier than the first is written at the first's time.
        #expect(origin.elapsed(Microseconds(1_000), ceiling: .max) == 0)
    }

    @Test func aDifferenceBeyondInt64IsTheCeilingOrZero() {
        var late = TimeOrigin()
        #expect(late.elapsed(Microseconds(Int64.min), ceiling: 42) == 0)
        #expect(late.elapsed(Microseconds(Int64.max), ceiling: 42) == 42)
        var early = TimeOrigin()
        #expect(early.elapsed(Microseconds(Int64.max), ceiling: 42) == 0)
        #expect(early.elapsed(Microseconds(Int64.min), ceiling: 42) == 0)
    }

    /// The writers through their public API: the first frame at a late
    /// time and a frame before it are both at the start of the file.
    @Test func theWritersStartAtTheFirstFrame() {
        let frames = [
            InputFrame(time: 2_000_000, events: [Fixtures.event(.key, .buttonTouch, 1), .synchronizationReport()]),
            InputFrame(time: 1_000_000, events: [Fixtures.event(.key, .buttonTouch, 0), .synchronizationReport()]),
        ]
        var evemu = EvemuWriter.EventWriter()
        var evemuText = ""
        for frame in frames { evemu.append(frame, to: &evemuText) }
        #expect(evemuText.split(separator: "\n").allSatisfy { $0.hasPrefix("E: 0.000001 ") })
        var libinput = LibinputRecordWriter.EventWriter()
        var libinputText = ""
        for frame in frames { libinput.append(frame, to: &libinputText) }
        #expect(libinputText.components(separatedBy: "[  0,      0,").count == 5)
        var android = AndroidUinputWriter.EventWriter()
        var androidText = ""
        for frame in frames { android.append(frame, to: &androidText) }
        #expect(!androidText.contains("delay"))
    }
}
