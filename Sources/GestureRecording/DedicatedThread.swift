import Glibc
import InputSystem

/// Runs work on a new detached POSIX thread: blocking waits must not
/// occupy one of the few threads of Swift's cooperative pool.
enum DedicatedThread {
    /// The work, handed to the new thread through a raw pointer.
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread.
    /// - Throws: ``InputSystem/SystemError`` from `pthread_create`, e.g.
    ///   EAGAIN when the system is out of threads.
    static func start(_ body: sending @escaping () -> Void) throws(SystemError) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { pointer in
                guard let pointer else { return nil }
                let work = Unmanaged<Work>.fromOpaque(pointer).takeRetainedValue()
                work.body()
                return nil
            }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw SystemError(call: "pthread_create", errorNumber: result)
        }
        _ = pthread_detach(thread)
    }
}

extension RecordingSession {
    /// Runs `session` on a thread of its own and returns when it stops;
    /// the calling task is suspended meanwhile, not blocked.
    /// - Throws: ``InputSystem/SystemError`` when the thread cannot be created.
    public static func runOnDedicatedThread(
        _ session: sending RecordingSession
    ) async throws(SystemError) -> RecordingSessionResult {
        let handover = Handover(session)
        let outcome: Result<RecordingSessionResult, SystemError> = await withCheckedContinuation { continuation in
            do throws(SystemError) {
                try DedicatedThread.start {
                    continuation.resume(returning: .success(handover.session.run()))
                }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try outcome.get()
    }

    /// Starts `session` on a thread of its own and returns at once;
    /// `completion` runs on that thread when the recording stops.
    /// - Throws: ``InputSystem/SystemError`` when the thread cannot be created.
    public static func start(
        _ session: sending RecordingSession, completion: sending @escaping (RecordingSessionResult) -> Void
    ) throws(SystemError) {
        try DedicatedThread.start { completion(session.run()) }
    }
}

/// Carries a session into the closure that the new thread runs.
///
/// `@unchecked Sendable` because the compiler cannot see the hand-over
/// through `withCheckedContinuation`: the session arrives as a `sending`
/// parameter (no one else holds it), is stored here once, and only the new
/// thread uses it afterwards.
private final class Handover: @unchecked Sendable {
    let session: RecordingSession
    init(_ session: sending RecordingSession) { self.session = session }
}
