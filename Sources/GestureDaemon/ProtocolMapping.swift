import GestureProtocol
import GestureBindings
import GestureEngine
import GesturePlayback
import GestureRecording

extension RecordingStopCode {
    /// The code of a stop reason.
    init(_ reason: RecordingStopReason) {
        switch reason {
        case .cancelled: self = .stopped
        case .enterPressed: self = .enter
        case .idleTimeout: self = .idleTimeout
        case .maximumDuration: self = .maximumDuration
        case .noContactTimeout: self = .noContactTimeout
        case .limitReached: self = .limit
        case .deviceVanished: self = .deviceVanished
        case .readFailed: self = .readFailed
        }
    }
}

extension FingertipsEndCode {
    /// The code of a stop reason.
    init(_ reason: FingertipsStopReason) {
        switch reason {
        case .idle: self = .idle
        case .cancelled: self = .cancelled
        case .sourceVanished: self = .sourceVanished
        case .failed: self = .failed
        }
    }
}

extension PressAction {
    /// The protocol's word for a key press's action.
    init(_ action: KeyPress.Action) {
        switch action {
        case .tap: self = .tap
        case .down: self = .down
        case .up: self = .up
        }
    }
}
