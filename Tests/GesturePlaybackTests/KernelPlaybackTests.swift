import Foundation
import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GesturePlayback

/// Plays through a real uinput device and reads it back through evdev;
/// runs in the VM (case 18 of the integration tier), reported as skipped
/// where /dev/uinput is not writable, and failed there under CI.
@Suite("Playback on uinput", .requiringDevice("/dev/uinput", "modprobe uinput; the VM tier runs this suite"))
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

    @Test("The virtual keyboard has exactly its keys, is a key device, and a kept down reads back until its up")
    func keyboardReadsBack() throws {
        let session = try PlaybackSession(profile: .keyboard(), linger: .zero)
        defer { session.close() }
        let reader = try EvdevDevice(path: try #require(session.devnode))
        #expect(reader.description.codes[.key] == Set(VirtualKeyboard.keys.map(\.code)))
        #expect(DeviceClassifier.kind(of: reader.description) == .keyboard)
        func readAll() throws -> [String] {
            var read: [String] = []
            while case .event(let event) = try reader.nextEvent() {
                read.append("\(event.code.nameOrNumber(type: event.type)) \(event.value)")
            }
            return read
        }
        let down = KeyPress(key: .keyVolumeUp, action: .down).frames(from: session.state)
        #expect(try session.start(down, releasesAtEnd: false).wait().isCompleted)
        #expect(try readAll() == ["KEY_VOLUMEUP 1", "SYN_REPORT 0"])
        #expect(session.state.pressedKeys == [.keyVolumeUp])
        let up = KeyPress(key: .keyVolumeUp, action: .up).frames(from: session.state)
        #expect(try session.start(up, releasesAtEnd: false).wait().isCompleted)
        #expect(try readAll() == ["KEY_VOLUMEUP 0", "SYN_REPORT 0"])
        #expect(session.state.isReleased)
    }
}
