/// What made a stroke.
public enum StrokeKind: String, Sendable, CaseIterable {
    /// A finger on a touchscreen or touchpad.
    case finger
    /// A pen or stylus on a tablet.
    case pen
    /// A pointer (mouse, trackball, head pointer) moved with a button held.
    case pointer
}

/// The button held during a pointer stroke.
public enum PointerButton: String, Sendable, CaseIterable {
    case left, right, middle
}

/// One contact from touch-down to lift-off: a finger, a pen, or a pointer
/// with a button held.
///
/// Samples are in time order; a stroke with a single sample is a tap.
public struct Stroke: Hashable, Sendable {
    /// What made the stroke.
    public var kind: StrokeKind
    /// The button held, for pointer strokes; `nil` for fingers and pens.
    public var button: PointerButton?
    /// The positions, in time order (read from a file when asked, for a
    /// long gesture read from one: ``Samples``).
    public var samples: Samples
    /// Whether the positions are estimated, not measured: a finger the
    /// device said was down (a touchpad's `BTN_TOOL_TRIPLETAP`…) but did
    /// not track, placed beside the tracked ones as libinput does.
    public var isEstimated: Bool

    /// Creates a stroke.
    public init(kind: StrokeKind = .finger, button: PointerButton? = nil, samples: [Sample], isEstimated: Bool = false) {
        self.init(kind: kind, button: button, samples: Samples(samples), isEstimated: isEstimated)
    }

    /// Creates a stroke of samples that may be read from a file (``Samples``).
    public init(kind: StrokeKind = .finger, button: PointerButton? = nil, samples: Samples, isEstimated: Bool = false) {
        self.kind = kind
        self.button = button
        self.samples = samples
        self.isEstimated = isEstimated
    }

    /// Time of the first sample (zero for an empty stroke).
    public var startTime: Microseconds { samples.first?.time ?? .zero }
    /// Time of the last sample (zero for an empty stroke).
    public var endTime: Microseconds { samples.last?.time ?? .zero }
    /// Time from the first sample to the last.
    public var duration: Microseconds { endTime - startTime }

    /// A copy with every sample moved by `offset` in time.
    public func shifted(by offset: Microseconds) -> Stroke {
        var copy = self
        if samples.source != nil {
            // Read from a file: shifted as read, never copied (issue 39).
            copy.samples = samples.mapped { sample in
                var shifted = sample
                shifted.time = sample.time + offset
                return shifted
            }
            return copy
        }
        for index in copy.samples.indices { copy.samples[index].time = copy.samples[index].time + offset }
        return copy
    }
}
