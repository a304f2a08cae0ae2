import GestureModel
import InputSystem

@testable import GestureRecording

/// One event of a frame, without its time.
typealias EventValue = (type: EventType, code: EventCode, value: Int32)

func abs(_ code: EventCode, _ value: Int32) -> EventValue { (.absolute, code, value) }
func rel(_ code: EventCode, _ value: Int32) -> EventValue { (.relative, code, value) }
func key(_ code: EventCode, _ value: Int32) -> EventValue { (.key, code, value) }
/// `SYN_MT_REPORT`, ending one protocol A contact.
let mtReport: EventValue = (.synchronization, .synchronizationMultitouchReport, 0)

/// Milliseconds as microseconds.
func ms(_ value: Int64) -> Microseconds { Microseconds(value * 1_000) }

/// A frame at `milliseconds` (kernel clock): the events, then `SYN_REPORT`.
func frame(_ milliseconds: Int64, _ events: [EventValue]) -> [ReadOutcome] {
    let time = ms(milliseconds)
    return events.map { .event(InputEvent(time: time, type: $0.type, code: $0.code, value: $0.value)) }
        + [.event(.synchronizationReport(time: time))]
}

/// The same frame as resync events (after SYN_DROPPED).
func resyncFrame(_ milliseconds: Int64, _ events: [EventValue]) -> [ReadOutcome] {
    frame(milliseconds, events).map {
        guard case .event(let event) = $0 else { return $0 }
        return .resyncEvent(event)
    }
}

/// The `SYN_DROPPED` outcome at `milliseconds`.
func dropped(_ milliseconds: Int64) -> ReadOutcome {
    .resyncNeeded(InputEvent(time: ms(milliseconds), type: .synchronization, code: .synchronizationDropped, value: 0))
}

/// A sample at `milliseconds` from the start.
func sample(_ milliseconds: Int64, _ x: Int, _ y: Int, pressure: Int? = nil, size: Int? = nil) -> Sample {
    Sample(time: ms(milliseconds), x: x, y: y, pressure: pressure, size: size)
}

extension StrokeRecorder {
    /// Feeds every outcome in order; the notices returned.
    @discardableResult
    mutating func feed(all outcomes: [ReadOutcome]) -> [RecorderNotice] {
        outcomes.compactMap { feed($0) }
    }

    /// The finished gesture, stopped as cancelled.
    func finished() throws -> RecordedGesture {
        try finish(RecordingDetails(name: "test"), reason: .cancelled)
    }
}
