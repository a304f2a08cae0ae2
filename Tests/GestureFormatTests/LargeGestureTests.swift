import GestureFormat
import GestureModel
import Testing

@Suite struct LargeGestureTests {
    /// Ten fingers of 100,000 samples each: one million samples.
    static func millionSampleGesture() -> Gesture {
        let strokes = (0..<10).map { finger in
            Stroke(
                samples: (0..<100_000).map { index in
                    Sample(
                        time: Microseconds(Int64(index) * 8_333), x: 1_000 + finger * 1_000 + index % 500,
                        y: 13_000 - index % 13_000, pressure: index % 7 == 0 ? nil : index % 256,
                        size: index % 3 == 0 ? nil : index % 31)
                })
        }
        var device = Fixtures.exampleDevice
        device.size = AxisRange(minimum: 0, maximum: 30)
        return Gesture(name: "million", device: device, strokes: strokes)
    }

    /// Timing is printed, never asserted: the machine is shared and this is
    /// a debug build. Release throughput is measured by hand.
    @Test func millionSamplesRoundTrip() throws {
        let gesture = Self.millionSampleGesture()
        let clock = ContinuousClock()
        var bytes: [UInt8] = []
        let encodeTime = clock.measure { bytes = GestureFileFormat.encodeUTF8(gesture) }
        var decoded: Gesture?
        let decodeTime = try clock.measure { decoded = try GestureFileFormat.decode(bytes, source: "million.json") }
        #expect(decoded == gesture)
        print("1,000,000 samples, \(bytes.count) bytes: encode \(encodeTime), decode \(decodeTime) (debug)")
    }

    @Test func tooManyStrokesAreRefusedWhileReading() {
        let head = #"{"format":1,"name":"n","device":{"kind":"touchscreen","x":{"min":0,"max":10},"y":{"min":0,"max":10},"slots":1},"strokes":["#
        let stroke = #"{"kind":"finger","samples":[[0,0,0]]}"#
        let text = head + Array(repeating: stroke, count: GestureLimits.maximumStrokes + 1).joined(separator: ",") + "]}"
        let error = decodeError(text)
        let column = head.count + GestureLimits.maximumStrokes * (stroke.count + 1) + 1
        #expect(error?.description == "g.json:1:\(column): more than 10000 strokes; the limit is 10000")
        #expect(error?.kind == .tooLarge)
    }
}
