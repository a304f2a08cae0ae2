import GestureModel
import Testing

/// A valid gesture on a device with pressure and size axes, to break one
/// rule at a time.
private func validGesture() -> Gesture {
    Gesture(
        name: "pinch",
        description: "Two fingers pinch",
        device: DeviceGeometry(
            kind: .touchscreen,
            x: AxisRange(minimum: 0, maximum: 1000, resolution: 10),
            y: AxisRange(minimum: -500, maximum: 500, resolution: 10),
            pressure: AxisRange(minimum: 0, maximum: 255),
            size: AxisRange(minimum: 0, maximum: 30),
            slots: 10
        ),
        strokes: [
            Stroke(samples: [
                Sample(time: 0, x: 100, y: 0), Sample(time: 1000, x: 110, y: 10, pressure: 40, size: 5),
                Sample(time: 1000, x: 120, y: 20),
            ]),
            Stroke(kind: .pointer, button: .left, samples: [Sample(time: 500, x: 900, y: -500)]),
        ],
        metadata: RecordingMetadata(droppedEvents: 2)
    )
}

/// The validation error after `change`, or nil when the gesture stays valid.
private func problem(_ change: (inout Gesture) -> Void) -> GestureValidationError? {
    var gesture = validGesture()
    change(&gesture)
    do {
        try gesture.validate()
        return nil
    } catch {
        return error
    }
}

@Suite struct ValidationTests {
    @Test func validGesturePasses() throws {
        try validGesture().validate()
        try Gesture(name: "x", device: .synthDefault, strokes: [Stroke(samples: [Sample(time: 0, x: 0, y: 0)])])
            .validate()
    }

    @Test func nameRules() {
        #expect(problem { $0.name = "" }?.description == "name is empty")
        #expect(problem { $0.name = String(repeating: "é", count: 101) }?.description == "name is 202 bytes long; the limit is 200")
        #expect(problem { $0.name = String(repeating: "a", count: 200) } == nil)
        #expect(problem { $0.name = "a\tb" }?.description == "name contains a control character (U+0009)")
        #expect(problem { $0.name = "a\u{85}b" }?.description == "name contains a control character (U+0085)")
        #expect(problem { $0.name = "a\u{7F}" }?.field == .name)
        #expect(problem { $0.name = "Zwei Finger – tippen 👆" } == nil)
    }

    @Test func descriptionLimit() {
        #expect(problem { $0.description = String(repeating: "a", count: 4097) }?.description
            == "description is 4097 bytes long; the limit is 4096")
        #expect(problem { $0.description = String(repeating: "a", count: 4096) } == nil)
        #expect(problem { $0.description = "multi\nline\ttext" } == nil)
    }

    @Test func axisRules() {
        #expect(problem { $0.device.x.maximum = 0 }?.description == "device x axis: minimum 0 is not below maximum 0")
        #expect(problem { $0.device.y.minimum = 600 }?.description == "device y axis: minimum 600 is not below maximum 500")
        #expect(problem { $0.device.x.minimum = -(1 << 31) - 1 }?.description
            == "device x axis: minimum -2147483649 is beyond ±2147483648")
        #expect(problem { $0.device.y.maximum = Int.max }?.description
            == "device y axis: maximum 9223372036854775807 is beyond ±2147483648")
        #expect(problem { $0.device.x.resolution = -1 }?.description == "device x axis: resolution -1 is negative")
        #expect(problem { $0.device.pressure = AxisRange(minimum: 5, maximum: 4) }?.description
            == "device pressure axis: minimum 5 is above maximum 4")
        #expect(problem { $0.device.size = AxisRange(minimum: Int.min, maximum: 4) }?.description
            == "device size axis: minimum -9223372036854775808 is beyond ±2147483648")
        // A one-value pressure axis is allowed (a device that reports touch only).
        #expect(problem {
            $0.device.pressure = AxisRange(minimum: 0, maximum: 0)
            $0.strokes[0].samples[1].pressure = 0
        } == nil)
        #expect(problem {
            $0.device.x.minimum = -(1 << 31)
            $0.device.widthMM = 0  // else it would disagree with span ÷ resolution
        } == nil)
    }

    @Test func physicalSizeAndSlots() {
        #expect(problem { $0.device.widthMM = -1 }?.description == "device width -1 mm is negative")
        #expect(problem { $0.device.heightMM = -2.5 }?.description == "device height -2.5 mm is negative")
        #expect(problem { $0.device.widthMM = .nan }?.description == "device width is not a finite number")
        #expect(problem { $0.device.heightMM = .infinity }?.description == "device height is not a finite number")
        #expect(problem { $0.device.widthMM = 0 } == nil)
        #expect(problem { $0.device.slots = 0 }?.description == "device slots 0 is outside 1…100")
        #expect(problem { $0.device.slots = 101 }?.description == "device slots 101 is outside 1…100")
        #expect(problem { $0.device.slots = 100 } == nil)
        #expect(problem { $0.device.slots = 1 } == nil)
    }

    /// Issue 39: a gesture whose samples stay in a file (a mapped file's,
    /// an import's spill) may have more than those held in memory.
    @Test func streamedSamplesHaveTheirOwnLimit() {
        // 4.5 million samples a stroke, read from a source as a mapped file's are.
        let streamed = Stroke(samples: Samples(source: Still(count: 4_500_000)))
        #expect(problem { $0.strokes = [streamed, streamed] } == nil)
        let held = Stroke(samples: Array(repeating: Sample(time: 0, x: 0, y: 0), count: 4_500_000))
        #expect(problem { $0.strokes = [streamed, held, held] }?.description
            == "gesture has 9000000 samples in memory; the limit is 8000000 (100000000 for a gesture read from a file of 1 MiB or more)")
        let huge = Stroke(samples: Samples(source: Still(count: 50_000_001)))
        #expect(problem { $0.strokes = [huge, huge] }?.description == "gesture has 100000002 samples; the limit is 100000000")
    }

    /// Issue 39: a source that says what its reader learnt of its samples
    /// (a mapped file's) is validated from that when it all passes, and
    /// read through otherwise: the same outcome, the same message, as the
    /// same samples held in an array.
    @Test func aSummaryGivesTheSameOutcome() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            var samples: [Sample] = []
            var time: Int64 = round % 7 == 0 ? -5 : 0
            for _ in 0..<Int.random(in: 1...20, using: &generator) {
                time += Int64.random(in: (round % 5 == 0 ? -3 : 0)...40, using: &generator)
                samples.append(
                    Sample(
                        time: Microseconds(time), x: Int.random(in: -2...1_002, using: &generator),
                        y: Int.random(in: -2...1_002, using: &generator),
                        pressure: round % 3 == 0 ? Int.random(in: -1...300, using: &generator) : nil,
                        size: round % 4 == 0 ? Int.random(in: -1...300, using: &generator) : nil))
            }
            var summary = SampleSummary()
            for sample in samples { summary.note(sample) }
            let held = problem { $0.strokes[0].samples = Samples(samples) }
            let summed = problem { $0.strokes[0].samples = Samples(source: Summed(samples, summary)) }
            #expect(summed?.description == held?.description, "round \(round)")
        }
    }

    private final class Summed: SampleSource {
        let samples: [Sample]
        let summary: SampleSummary?
        init(_ samples: [Sample], _ summary: SampleSummary) {
            self.samples = samples
            self.summary = summary
        }
        var count: Int { samples.count }
        func sample(at index: Int) -> Sample { samples[index] }
    }

    /// Samples that stay at the origin at time 0, as many as `count`.
    private final class Still: SampleSource {
        let count: Int
        init(count: Int) { self.count = count }
        func sample(at index: Int) -> Sample { Sample(time: 0, x: 0, y: 0) }
    }

    @Test func metadata() {
        let error = problem { $0.metadata?.droppedEvents = -1 }
        #expect(error?.description == "dropped events -1 is negative")
        #expect(error?.field == .metadataDroppedEvents)
    }

    @Test func strokeCounts() {
        #expect(problem { $0.strokes = [] }?.description == "gesture has no strokes")
        let tap = Stroke(samples: [Sample(time: 0, x: 0, y: 0)])
        #expect(problem { $0.strokes = Array(repeating: tap, count: 10_001) }?.description
            == "gesture has 10001 strokes; the limit is 10000")
        let long = Stroke(samples: Array(repeating: Sample(time: 0, x: 0, y: 0), count: 4_000_001))
        #expect(problem { $0.strokes = [long, long] }?.description
            == "gesture has 8000002 samples in memory; the limit is 8000000 (100000000 for a gesture read from a file of 1 MiB or more)")
        let error = problem { $0.strokes[1].samples = [] }
        #expect(error?.description == "stroke 2: stroke has no samples")
        #expect(error?.strokeIndex == 1)
        #expect(error?.sampleIndex == nil)
        #expect(error?.field == .stroke)
    }

    @Test func buttons() {
        #expect(problem { $0.strokes[1].button = nil }?.description == "stroke 2: pointer stroke has no button")
        #expect(problem { $0.strokes[0].button = .right }?.description
            == "stroke 1: finger stroke has a button (right); only pointer strokes have one")
        #expect(problem { $0.strokes[0].kind = .pen; $0.strokes[0].button = .middle }?.field == .strokeButton)
    }

    @Test func sampleTimes() {
        let error = problem { $0.strokes[0].samples[2].time = 999 }
        #expect(error?.description == "stroke 1, sample 3: time 999 µs is before the previous sample's 1000 µs")
        #expect(error?.strokeIndex == 0)
        #expect(error?.sampleIndex == 2)
        #expect(error?.message == "time 999 µs is before the previous sample's 1000 µs")
        #expect(error?.field == .sample)
        #expect(problem { $0.strokes[1].samples[0].time = -1 }?.description == "stroke 2, sample 1: time -1 µs is negative")
        #expect(problem { $0.strokes[1].samples[0].time = Microseconds(86_400_000_001) }?.description
            == "stroke 2, sample 1: time 86400000001 µs is beyond the limit of 86400000000 µs (24 hours)")
        #expect(problem { $0.strokes[1].samples[0].time = Microseconds(86_400_000_000) } == nil)
    }

    @Test func samplePositions() {
        #expect(problem { $0.strokes[0].samples[0].x = 1001 }?.description
            == "stroke 1, sample 1: x 1001 is outside the device's x axis 0…1000")
        #expect(problem { $0.strokes[0].samples[0].y = -501 }?.description
            == "stroke 1, sample 1: y -501 is outside the device's y axis -500…500")
        #expect(problem { $0.strokes[0].samples[0].x = 1000; $0.strokes[0].samples[0].y = 500 } == nil)
    }

    @Test func samplePressureAndSize() {
        #expect(problem { $0.strokes[0].samples[1].pressure = 256 }?.description
            == "stroke 1, sample 2: pressure 256 is outside the device's pressure axis 0…255")
        #expect(problem { $0.strokes[0].samples[1].size = -1 }?.description
            == "stroke 1, sample 2: size -1 is outside the device's size axis 0…30")
        #expect(problem { $0.device.pressure = nil }?.description
            == "stroke 1, sample 2: pressure 40 is given but the device has no pressure axis")
        #expect(problem { $0.device.size = nil }?.description
            == "stroke 1, sample 2: size 5 is given but the device has no size axis")
    }

    @Test func onlyGestureKindsHoldGestures() {
        for kind in DeviceKind.gestureKinds { #expect(problem { $0.device.kind = kind } == nil) }
        let error = problem { $0.device.kind = .keyboard }
        #expect(error?.field == .deviceKind)
        #expect(error?.description == "device kind keyboard cannot hold a gesture; expected touchscreen, touchpad, tablet or mouse")
        #expect(problem { $0.device.kind = .other }?.field == .deviceKind)
    }

    @Test func deviceKindSpellings() {
        // Gesture files and --as spell the raw values; devices prints the listing names.
        #expect(DeviceKind.gestureKinds.map(\.rawValue) == ["touchscreen", "touchpad", "tablet", "mouse"])
        #expect(DeviceKind.allCases.map(\.rawValue) == ["touchscreen", "touchpad", "tablet", "mouse", "keyboard", "other"])
        #expect(DeviceKind.allCases.map(\.listingName) == [
            "touchscreen", "touchpad", "tablet/pen", "mouse/pointer", "keyboard/buttons", "other",
        ])
    }

    @Test func firstProblemWinsInDocumentedOrder() {
        let error = problem {
            $0.name = ""
            $0.device.slots = 0
            $0.strokes = []
        }
        #expect(error?.field == .name)
    }
}
