import GestureModel
import InputSystem
import Testing

@testable import GesturePlayback

/// Frames made one at a time (export, `play --print`): the same frames as
/// the in-memory list, in the same order, and the event limit bounds
/// repetitions only.
@Suite struct FrameStreamTests {
    /// The moments as the timeline made them before it merged strokes
    /// lazily: every change listed, sorted by time then stroke, grouped.
    private func referenceMoments(_ gesture: Gesture, speed: Double, liftDelay: Microseconds) -> [Moment] {
        let start = gesture.startTime.rawValue
        var changes: [(time: Int64, change: ContactChange)] = []
        for (index, stroke) in gesture.strokes.enumerated() {
            let first = changes.count
            var lastTime: Int64 = 0
            for sample in stroke.samples {
                let time = Int64((Double(sample.time.rawValue - start) / speed).rounded())
                if changes.count > first && changes[changes.count - 1].time == time {
                    changes[changes.count - 1].change.sample = sample
                } else {
                    let kind: ContactChange.Kind = changes.count == first ? .down : .move
                    changes.append((time, ContactChange(kind: kind, contact: index, sample: sample)))
                }
                lastTime = time
            }
            changes.append((lastTime + liftDelay.rawValue, ContactChange(kind: .lift, contact: index, sample: nil)))
        }
        let ordered = changes.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }
        var moments: [Moment] = []
        for entry in ordered {
            if let last = moments.last, last.time.rawValue == entry.element.time {
                moments[moments.count - 1].changes.append(entry.element.change)
            } else {
                moments.append(Moment(time: Microseconds(entry.element.time), changes: [entry.element.change]))
            }
        }
        return moments
    }

    /// Strokes that overlap, start and end together, share sample times
    /// and (at speed 3) collapse several samples onto one time.
    private func tangledGesture(seed: UInt64) -> Gesture {
        var generator = seed
        func next(_ bound: Int) -> Int {
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((generator >> 33) % UInt64(bound))
        }
        var strokes: [Stroke] = []
        for _ in 0..<(2 + next(5)) {
            var time = Int64(next(4) * 1_000)
            var points: [(Int64, Int, Int)] = []
            for _ in 0..<(1 + next(30)) {
                points.append((time, next(21_600), next(13_500)))
                time += Int64(next(3) * 1_000)
            }
            strokes.append(finger(points))
        }
        return touchscreenGesture(strokes)
    }

    @Test("The lazily merged timeline has the moments of sorting every change", arguments: [1.0, 3.0, 0.5])
    func mergeMatchesSort(speed: Double) {
        for seed in 1...200 as ClosedRange<UInt64> {
            let gesture = tangledGesture(seed: seed)
            let timeline = ContactTimeline(gesture: gesture, speed: speed, liftDelay: Microseconds(1_000))
            let expected = referenceMoments(gesture, speed: speed, liftDelay: Microseconds(1_000))
            #expect(timeline.moments == expected, "seed \(seed)")
            var held = 0
            var most = 0
            for moment in expected {
                let downs = moment.changes.filter { $0.kind == .down }.count
                most = max(most, held + downs)
                held += downs - moment.changes.filter { $0.kind == .lift }.count
            }
            #expect(timeline.mostContacts.count == most, "seed \(seed)")
        }
    }

    @Test("Frames one at a time are the in-memory frames, repetitions included; returning false stops")
    func streamMatchesList() throws {
        let gesture = touchscreenGesture([
            finger([(0, 100, 100), (8_000, 200, 200), (16_000, 300, 300)]),
            finger([(8_000, 1_000, 1_000), (16_000, 1_100, 1_100)]),
        ])
        let builder = try FrameBuilder(target: .touchscreen(), options: PlaybackOptions(repeatCount: 3))
        let listed = try builder.frames(for: gesture)
        var streamed: [InputFrame] = []
        var repetitions: Set<Int> = []
        try builder.forEachFrame(for: gesture) { frame, repetition in
            streamed.append(frame)
            repetitions.insert(repetition)
            return true
        }
        #expect(streamed == listed)
        #expect(repetitions == [0, 1, 2])
        var count = 0
        try builder.forEachFrame(for: gesture) { _, _ in
            count += 1
            return count < 2
        }
        #expect(count == 2)
    }

    @Test("A checked gesture's frames are the builder's, from any state, and its event limit holds; a gesture that fails the check has none")
    func checkedMatchesBuilt() throws {
        let gesture = touchscreenGesture([
            finger([(0, 100, 100), (8_000, 200, 200), (16_000, 300, 300)]),
            finger([(8_000, 1_000, 1_000), (16_000, 1_100, 1_100)]),
        ])
        let builder = try FrameBuilder(target: .touchscreen(), options: PlaybackOptions(speed: 2, repeatCount: 2))
        let checked = try builder.check(gesture)
        #expect(try checked.frames() == builder.frames(for: gesture))
        // From a device that played before: slots and tracking ids carry on.
        var played = DeviceState(description: builder.target.description)
        for frame in try builder.frames(for: gesture) { played.apply(frame) }
        #expect(try checked.frames(from: played) == builder.frames(for: gesture, from: played))
        #expect(throws: PlaybackError.tooManyEvents(limit: 10, repetitions: 2)) { try checked.frames(eventLimit: 10) }
        // Twelve fingers at once on a ten-slot touchscreen: refused by the check itself.
        let crowded = touchscreenGesture((0..<12).map { finger([(0, 100 + $0 * 50, 100), (8_000, 100 + $0 * 50, 200)]) })
        #expect(throws: PlaybackError.self) { try builder.check(crowded) }
    }

    @Test("The frame writers' bit sets of supported codes say what the device's description says, for every code of every kind")
    func supportedCodesMatchTheDescription() {
        // The last code of each type, and a key code past the kernel's last.
        let odd = InputDeviceDescription(
            name: "odd", codes: [.key: [EventCode(rawValue: 0x2ff), EventCode(rawValue: 0x300)], .relative: [EventCode(rawValue: 63)]],
            absoluteAxes: [EventCode(rawValue: 0x3f): AbsoluteAxisInfo(minimum: 0, maximum: 1)])
        for description in [VirtualDeviceProfile.touchscreen(), .touchpad(), .mouse(), .tablet()].map(\.description) + [odd] {
            let supported = SupportedCodes(description)
            for type in [EventType.absolute, .relative, .key] {
                for raw in 0...0x300 {
                    let code = EventCode(rawValue: UInt16(raw))
                    // Beyond the kernel's maximum of each type: never written, never supported.
                    let inRange = raw < (type == .key ? 0x300 : 64)
                    #expect(supported.supports(type, code) == (inRange && description.supports(type, code)), "\(description.name) \(type) \(raw)")
                }
            }
            #expect(!supported.supports(.synchronization, EventCode(rawValue: 0)))
        }
    }

    @Test("The event limit of a play in memory bounds repetitions, never one repetition of a valid gesture")
    func eventLimitBoundsRepetitions() throws {
        let gesture = touchscreenGesture([finger((0..<50).map { (Int64($0) * 8_000, 100 + $0 * 10, 100) })])
        let once = try FrameBuilder(target: .touchscreen(), options: PlaybackOptions())
        let events = try once.frames(for: gesture).reduce(0) { $0 + $1.events.count }
        // One repetition above the limit is still played whole.
        #expect(try once.frames(for: gesture, eventLimit: events / 2).count == once.frames(for: gesture).count)
        let twice = try FrameBuilder(target: .touchscreen(), options: PlaybackOptions(repeatCount: 2))
        #expect(throws: PlaybackError.tooManyEvents(limit: events + 1, repetitions: 2)) {
            try twice.frames(for: gesture, eventLimit: events + 1)
        }
        #expect(
            PlaybackError.tooManyEvents(limit: 100, repetitions: 2).description
                == "2 repetitions of this gesture would need more than 100 events in memory; use fewer repetitions")
    }
}
