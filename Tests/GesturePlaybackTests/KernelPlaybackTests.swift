import Foundation
import GestureModel
import InputSystem
import Testing

@testable import GesturePlayback

/// Plays through a real uinput device and reads it back through evdev;
/// runs in the VM, reported as skipped where /dev/uinput is not writable.
@Suite("Playback on uinput", .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/uinput")))
struct KernelPlaybackTests {
    @Test("A played gesture reads back event for event, and a second play continues the tracking ids")
    func playReadsBack() throws {
        let session = try PlaybackSession(profile: .touchscreen(), linger: .zero)
        defer { session.close() }
        let reader = try EvdevDevice(path: try #require(session.devnode))
        let gesture = touchscreenGesture([
            finger([(0, 1_000, 2_000), (20_000, 1_100, 2_000)]), finger([(0, 5_000, 5_000), (20_000, 5_000, 5_100)]),
        ])
        for _ in 0..<2 {
            let frames = try session.frames(for: gesture)
            let result = try session.play(gesture)
            #expect(result.isCompleted)
            #expect(result.lateness.count == frames.count)
            // uinput's write() has queued the events for every reader by the time it returns.
            var read: [String] = []
            while case .event(let event) = try reader.nextEvent() {
                read.append("\(event.code.nameOrNumber(type: event.type)) \(event.value)")
            }
            #expect(read == frames.flatMap(lines))
            #expect(session.state.isReleased)
        }
        #expect(session.state.lastTrackingID == 3)
    }
}
