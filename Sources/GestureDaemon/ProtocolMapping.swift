import GestureProtocol
import GestureEngine
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
