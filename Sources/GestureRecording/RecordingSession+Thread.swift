import OperatingSystem

/// A recording running on its own thread: cancel it, follow its status,
/// wait for its ``RecordingSessionResult``.
public typealias RecordingHandle = JobHandle<RecordingSessionResult, RecordingStatus>

extension RecordingSession {
    /// How the recording thread is set up: named `gesturectl-rec`.
    public static let threadOptions = ThreadOptions(name: "gesturectl-rec")

    /// Whether this process may record at SCHED_FIFO `priority`
    /// (`record --realtime`: a reader the scheduler runs before every
    /// normal process, so that a busy machine does not keep it from the
    /// device until the kernel's buffer for it overflows); ask before
    /// opening the device, so that a refusal costs nothing.
    /// - Throws: ``RecordingError/realtimeRefused(priority:_:)``.
    public static func checkRealtime(priority: Int32) throws(RecordingError) {
        do throws(SystemError) {
            try DedicatedThread.checkRealtime(priority: priority)
        } catch {
            throw .realtimeRefused(priority: priority, error)
        }
    }

    /// Starts `session` on a thread of its own (``threadOptions``) and
    /// returns at once; the handle reports the session's status and ends
    /// with its result. Cancelling the handle stops the session when the
    /// session was created with the handle's cancellation signal.
    /// - Throws: ``OperatingSystem/SystemError`` when the thread cannot be started.
    public static func start(
        _ session: sending RecordingSession, handle: RecordingHandle
    ) throws(SystemError) -> RecordingHandle {
        try DedicatedThread.start(threadOptions) {
            if session.statusHandler == nil { session.statusHandler = { handle.report($0) } }
            handle.finish(session.run())
        }
        return handle
    }
}
