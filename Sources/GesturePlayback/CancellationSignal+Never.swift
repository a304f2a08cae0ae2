import InputSystem

extension CancellationSignal {
    /// A signal nobody cancels, for waits that must run their course (the
    /// moment a device is kept after the last frame).
    static let never = CancellationSignal()
}
