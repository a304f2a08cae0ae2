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
///
/// The moments are produced one at a time (``forEachMoment(_:)``), merging
/// the strokes as they go, so that the memory a play or an export needs
/// does not grow with the gesture's length (a one-hour gesture has
/// millions of moments).
struct ContactTimeline: Sendable {
    /// The most contacts held at one moment, and the first moment it happens.
    /// A contact that lifts at the moment another touches down counts for
    /// both: they share the frame (and a slot is reused only in a later frame).
    let mostContacts: (count: Int, time: Microseconds)

    private let gesture: Gesture
    private let start: Int64
    private let speed: Double
    private let liftDelay: Microseconds

    init(gesture: Gesture, speed: Double, liftDelay: Microseconds) {
        self.gesture = gesture
        self.start = gesture.startTime.rawValue
        self.speed = speed
        self.liftDelay = liftDelay

        // Touch-downs and lifts only: which strokes are held when.
        var ends: [(time: Int64, stroke: Int, isDown: Bool)] = []
        ends.reserveCapacity(gesture.strokes.count * 2)
        for (index, stroke) in gesture.strokes.enumerated() {
            guard let first = stroke.samples.first, let last = stroke.samples.last else { continue }
            ends.append((Self.scaled(first.time, start: start, speed: speed), index, true))
            ends.append((Self.scaled(last.time, start: start, speed: speed) + liftDelay.rawValue, index, false))
        }
        ends.sort { $0.time < $1.time }
        var held = 0
        var most = (count: 0, time: Microseconds.zero)
        var index = 0
        while index < ends.count {
            let time = ends[index].time
            var downs = 0
            var lifts = 0
            while index < ends.count && ends[index].time == time {
                if ends[index].isDown { downs += 1 } else { lifts += 1 }
                index += 1
            }
            if held + downs > most.count { most = (held + downs, Microseconds(time)) }
            held += downs - lifts
        }
        mostContacts = most
    }

    /// A sample's time from the gesture's start, divided by the speed.
    /// Validated times lie in 0…24 h and speed in 0.01…100: at most
    /// 8.64e12 µs, far from Int64's limits.
    private static func scaled(_ time: Microseconds, start: Int64, speed: Double) -> Int64 {
        Int64((Double(time.rawValue - start) / speed).rounded())
    }

    /// Where one stroke is in the merge: the index of its next sample, or
    /// `samples.count` when only the lift is left.
    private struct Cursor {
        var stroke: Int
        var next: Int
        var lifted = false
        var lastTime: Int64 = 0
        /// The time of the cursor's next change.
        var time: Int64
    }

    /// Calls `body` with each moment in time order (at one time, changes in
    /// the order of their strokes), until it returns false.
    func forEachMoment<E: Error>(_ body: (Moment) throws(E) -> Bool) throws(E) {
        // A binary min-heap of cursors by (time, stroke): at most 10,000 strokes.
        var heap: [Cursor] = []
        heap.reserveCapacity(gesture.strokes.count)
        for (index, stroke) in gesture.strokes.enumerated() where !stroke.samples.isEmpty {
            heap.append(Cursor(stroke: index, next: 0, time: Self.scaled(stroke.samples[0].time, start: start, speed: speed)))
        }
        func less(_ a: Cursor, _ b: Cursor) -> Bool { a.time != b.time ? a.time < b.time : a.stroke < b.stroke }
        func siftDown(_ from: Int) {
            var parent = from
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }

        var moment = Moment(time: .zero, changes: [])
        while let top = heap.first {
            var cursor = top
            let samples = gesture.strokes[cursor.stroke].samples
            let change: ContactChange
            if cursor.next < samples.count {
                // Samples on the same scaled time collapse to the last one.
                var last = cursor.next
                while last + 1 < samples.count
                    && Self.scaled(samples[last + 1].time, start: start, speed: speed) == cursor.time
                {
                    last += 1
                }
                change = ContactChange(kind: cursor.next == 0 ? .down : .move, contact: cursor.stroke, sample: samples[last])
                cursor.lastTime = cursor.time
                cursor.next = last + 1
                cursor.time =
                    cursor.next < samples.count
                    ? Self.scaled(samples[cursor.next].time, start: start, speed: speed)
                    : cursor.lastTime + liftDelay.rawValue
            } else {
                change = ContactChange(kind: .lift, contact: cursor.stroke, sample: nil)
                cursor.lifted = true
            }
            let time = Microseconds(top.time)
            if !moment.changes.isEmpty && moment.time != time {
                guard try body(moment) else { return }
                moment.changes.removeAll(keepingCapacity: true)
            }
            moment.time = time
            moment.changes.append(change)
            if cursor.lifted {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            } else {
                heap[0] = cursor
            }
            siftDown(0)
        }
        if !moment.changes.isEmpty { _ = try body(moment) }
    }

    /// Every moment, in order (tests; plays use ``forEachMoment(_:)``).
    var moments: [Moment] {
        var all: [Moment] = []
        forEachMoment { (moment: Moment) -> Bool in
            all.append(moment)
            return true
        }
        return all
    }
}
