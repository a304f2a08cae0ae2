import GestureModel

/// The example gesture of the format description, as a value and as its
/// canonical text.
enum Fixtures {
    static let exampleDevice = DeviceGeometry(
        kind: .touchscreen,
        x: AxisRange(minimum: 0, maximum: 21_600, resolution: 100),
        y: AxisRange(minimum: 0, maximum: 13_500, resolution: 100),
        pressure: AxisRange(minimum: 0, maximum: 255, resolution: 0),
        size: AxisRange(minimum: 0, maximum: 30, resolution: 0),
        widthMM: 216, heightMM: 135, slots: 10
    )

    static let example = Gesture(
        name: "two-finger-tap",
        description: "Two fingers tap together",
        device: exampleDevice,
        strokes: [
            Stroke(
                kind: .finger,
                samples: [
                    Sample(time: 0, x: 9900, y: 6750),
                    Sample(time: 8333, x: 9910, y: 6750, pressure: 30, size: 4),
                    Sample(time: 16667, x: 9920, y: 6750, pressure: nil, size: 4),
                ]),
            Stroke(kind: .pointer, button: .left, samples: [Sample(time: 0, x: 11700, y: 6750)]),
        ],
        metadata: RecordingMetadata(
            recordedAt: "2026-11-29T13:26:23Z", tool: "gesturectl 0.1.0", deviceName: "ELAN Touchscreen",
            deviceID: "usb-ELAN_Touchscreen-event-if00", droppedEvents: 0)
    )

    static let exampleText = """
        {
          "format": 1,
          "name": "two-finger-tap",
          "description": "Two fingers tap together",
          "device": {
            "kind": "touchscreen",
            "x": { "min": 0, "max": 21600, "resolution": 100 },
            "y": { "min": 0, "max": 13500, "resolution": 100 },
            "pressure": { "min": 0, "max": 255, "resolution": 0 },
            "size": { "min": 0, "max": 30, "resolution": 0 },
            "width_mm": 216,
            "height_mm": 135,
            "slots": 10
          },
          "metadata": {
            "recorded_at": "2026-11-29T13:26:23Z",
            "tool": "gesturectl 0.1.0",
            "device_name": "ELAN Touchscreen",
            "device_id": "usb-ELAN_Touchscreen-event-if00",
            "dropped_events": 0
          },
          "strokes": [
            {
              "kind": "finger",
              "samples": [
                [0, 9900, 6750],
                [8333, 9910, 6750, 30, 4],
                [16667, 9920, 6750, null, 4]
              ]
            },
            {
              "kind": "pointer",
              "button": "left",
              "samples": [
                [0, 11700, 6750]
              ]
            }
          ]
        }

        """

    /// A small valid gesture on the synth geometry: one finger, two samples.
    static let minimal = Gesture(
        name: "tap",
        device: .synthDefault,
        strokes: [Stroke(samples: [Sample(time: 0, x: 100, y: 200), Sample(time: 10_000, x: 110, y: 210)])]
    )

    static let minimalText = """
        {
          "format": 1,
          "name": "tap",
          "device": {
            "kind": "touchscreen",
            "x": { "min": 0, "max": 21600, "resolution": 100 },
            "y": { "min": 0, "max": 13500, "resolution": 100 },
            "width_mm": 216,
            "height_mm": 135,
            "slots": 10
          },
          "strokes": [
            {
              "kind": "finger",
              "samples": [
                [0, 100, 200],
                [10000, 110, 210]
              ]
            }
          ]
        }

        """

    /// `text` with every `old` replaced by `new`, to build variants of a
    /// fixture; `old` must occur, so a fixture change cannot silently make a
    /// test vacuous.
    static func replacing(_ old: String, with new: String, in text: String) -> String {
        precondition(text.contains(old), "fixture does not contain \(old)")
        return text.replacing(old, with: new)
    }
}
