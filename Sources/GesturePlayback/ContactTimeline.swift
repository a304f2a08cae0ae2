import GestureModel

/// What happens to one contact (a stroke) at one moment of a play.
struct ContactChange: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case down, move, lift }
    var kind: Kind
    /// The stroke's index in the gesture.
    var contact: Int
    /// The position, for a touch-down or a move.
    var sample: Sample?
}

/// Every change at one moment: one frame's worth (or, for a mouse, a few).
struct Moment: Hashable, Sendable {
    /// Time from the start of the repetition (the gesture's first sample).
    var time: Microseconds
    var changes: [ContactChange]
}

/// A gesture's strokes as touch-downs, moves and lifts on one timeline,
/// scaled by the speed, grouped by time.
///
/// Samples of one stroke that fall on the same (scaled) time collapse to
/// the last one. A stroke lifts `liftDelay` after its last sample.
struct ContactTimeline: Sendable {
    /// The moments in time order.
    let moments: [Moment]
    /// The most contacts held at one moment, and the first moment it happens.
    /// A contact that lifts at the moment another touches down counts for
    /// both: they share the frame (and a slot is reused only in a later frame).
    let mostContacts: (count: Int, time: Microseconds)

    init(gesture: Gesture, speed: Double, liftDelay: Microseconds) {
        let start = gesture.startTime.rawValue
        var changes: [(time: Int64, change: ContactChange)] = []
        changes.reserveCapacity(gesture.sampleCount + gesture.strokes.count)
        for (index, stroke) in gesture.strokes.enumerated() where !stroke.samples.isEmpty {
            let first = changes.count
            var lastTime: Int64 = 0
            for sample in stroke.samples {
                // Validated times lie in 0…4 h and speed in 0.01…100: at most
                // 1.44e12 µs, far from Int64's limits.
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
        // Stable order: by time, then by stroke (the order strokes were listed).
        let ordered = changes.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }
        var moments: [Moment] = []
        for entry in ordered {
            let time = Microseconds(entry.element.time)
            if let last = moments.last, last.time == time {
                moments[moments.count - 1].changes.append(entry.element.change)
            } else {
                moments.append(Moment(time: time, changes: [entry.element.change]))
            }
        }
        self.moments = moments

        var held = 0
        var most = (count: 0, time: Microseconds.zero)
        for moment in moments {
            let downs = moment.changes.filter { $0.kind == .down }.count
            let lifts = moment.changes.filter { $0.kind == .lift }.count
            if held + downs > most.count { most = (held + downs, moment.time) }
            held += downs - lifts
        }
        mostContacts = most
    }
}
