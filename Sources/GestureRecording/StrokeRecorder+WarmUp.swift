import GestureModel
import InputSystem

extension StrokeRecorder {
    /// Runs a made-up gesture through a copy of this recorder and leaves
    /// this one as it was: contacts down (every slot, up to ten), moved
    /// twice, lifted; then the status, the finished strokes and the
    /// finished gesture.
    ///
    /// Call it before saying that recording has begun. The first frames of
    /// a recording run code that has not run before: its first run reads
    /// code pages in and grows the heap, which on a slow machine can hold
    /// the reading thread for longer than the kernel's buffer of a
    /// ten-finger 1 kHz device lasts, and the kernel then drops events.
    /// Run here, that cost is paid before the first contact.
    ///
    /// - Returns: how many strokes the made-up gesture gave (for tests: the
    ///   recorder's own path ran).
    @discardableResult
    public func warmUp() -> Int {
        var scratch = self
        let geometry = profile.geometry
        let (x, y) = geometry.centre
        let contacts = profile.inputKind == .multitouchSlots || profile.inputKind == .multitouchProtocolA
            ? max(1, min(geometry.slots, 10)) : 1
        // Times after anything the device can have reported, so that the
        // copy's frames are never "backwards".
        var frameTime = (latestFrameTime ?? .zero).rawValue + 1_000_000
        func frame(_ events: [(EventType, EventCode, Int32)]) {
            for (type, code, value) in events {
                scratch.feed(InputEvent(time: Microseconds(frameTime), type: type, code: code, value: value))
            }
            scratch.feed(.synchronizationReport(time: Microseconds(frameTime)))
            frameTime += 1_000
        }
        let xs = (0..<contacts).map { Int32(clamping: x + $0) }
        let y32 = Int32(clamping: y)
        switch profile.inputKind {
        case .multitouchSlots:
            frame(
                xs.indices.flatMap { slot in
                    [
                        (.absolute, .multitouchSlot, Int32(slot)), (.absolute, .multitouchTrackingID, Int32(60_000 + slot)),
                        (.absolute, .multitouchPositionX, xs[slot]), (.absolute, .multitouchPositionY, y32),
                    ]
                } + [(.key, .buttonTouch, 1)])
            for step in Int32(1)...2 {
                frame(
                    xs.indices.flatMap { slot in
                        [(.absolute, .multitouchSlot, Int32(slot)), (.absolute, .multitouchPositionY, y32 &+ step)]
                    })
            }
            frame(
                xs.indices.flatMap { slot in
                    [(.absolute, .multitouchSlot, Int32(slot)), (.absolute, .multitouchTrackingID, -1)]
                } + [(.key, .buttonTouch, 0)])
        case .multitouchProtocolA:
            for step in Int32(0)...2 {
                frame(
                    xs.flatMap { contactX in
                        [
                            (.absolute, .multitouchPositionX, contactX), (.absolute, .multitouchPositionY, y32 &+ step),
                            (.synchronization, .synchronizationMultitouchReport, 0),
                        ]
                    })
            }
            frame([(.synchronization, .synchronizationMultitouchReport, 0)])
        case .singleTouch, .pen, .absolutePointer:
            let buttons: [EventCode] = switch profile.inputKind {
            case .pen: [.buttonToolPen, .buttonTouch]
            case .absolutePointer: [.buttonLeft]
            default: [.buttonTouch]
            }
            frame(buttons.map { (.key, $0, 1) } + [(.absolute, .absoluteX, xs[0]), (.absolute, .absoluteY, y32)])
            for step in Int32(1)...2 { frame([(.absolute, .absoluteY, y32 &+ step)]) }
            frame(buttons.map { (.key, $0, 0) })
        case .relativePointer:
            frame([(.key, .buttonLeft, 1), (.relative, .relativeX, 3), (.relative, .relativeY, 3)])
            for _ in 1...2 { frame([(.relative, .relativeY, 2)]) }
            frame([(.key, .buttonLeft, 0)])
        }
        _ = scratch.status()
        let taken = scratch.takeFinishedStrokes()
        // finish also makes the repairs and the warnings.
        // Harmless: the warm-up's recording is thrown away; only running finish matters, not its outcome.
        _ = try? scratch.finish(RecordingDetails(name: "warm-up"), reason: .cancelled)
        return taken.count
    }
}
