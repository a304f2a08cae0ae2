import OperatingSystem

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
}
