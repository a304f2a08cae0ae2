import GestureFormat
import OperatingSystem

/// Why a call to the daemon gave no result.
public enum DaemonCallError: Error, Sendable {
    /// The daemon answered with an error.
    case daemon(DaemonError)
    /// The daemon could not be reached, or the connection broke.
    case unreachable(DaemonUnreachable)
    /// Anything else (the daemon's reply could not be read).
    case other(String)

    init(_ error: any Error) {
        switch error {
        case let error as DaemonError: self = .daemon(error)
        case let error as DaemonUnreachable: self = .unreachable(error)
        default: self = .other("\(error)")
        }
    }
}

/// How a recording made through the daemon ended, as the client sees it.
public struct RemoteRecordingOutcome: Sendable {
    /// The `record-stop` reply, or why there is none.
    public var reply: Result<JSONValue, DaemonCallError>
    /// Why saving in the daemon's library failed (the result then came
    /// without saving, so that it is never lost).
    public var saveFailure: DaemonCallError?
}

/// The client side of a recording made through the daemon: one connection
/// waits for the result (`record-stop` with `wait`), another stops the
/// recording on Ctrl-C (the handle cancelled), on Enter (a line on the
/// terminal) or not at all when it ends by itself. Both run on threads of
/// their own (`gesturectl-recw`, `gesturectl-recs`); a client connection
/// serves one thread at a time.
public enum RemoteRecording {
    /// The waiting thread.
    public static let waitingThread = ThreadOptions(name: "gesturectl-recw")
    /// The stopping thread.
    public static let stoppingThread = ThreadOptions(name: "gesturectl-recs")

    /// Waits for the recording `job` (started with `record-start` on any
    /// connection) on `waiting`, and stops it through `stopper` when the
    /// handle is cancelled or, with `watchEnter`, when a line arrives on
    /// standard input. `save` and `force` go with `record-stop`.
    /// - Throws: ``OperatingSystem/SystemError`` when a thread cannot start.
    public static func follow(
        job: JSONValue, waiting: sending DaemonClient, stopper: sending DaemonClient,
        save: String?, force: Bool, watchEnter: Bool
    ) throws(SystemError) -> JobHandle<RemoteRecordingOutcome, Never> {
        let remote = JobHandle<RemoteRecordingOutcome, Never>()
        try DedicatedThread.start(waitingThread) {
            remote.finish(collect(waiting, .recordStop(wait: true, save: save, force: force)))
        }
        try DedicatedThread.start(stoppingThread) {
            stopWhenAsked(remote, job: job, stopper: stopper, watchEnter: watchEnter)
        }
        // Wakes the stopper when the recording ends by itself.
        remote.onCompletion { _ in remote.cancel() }
        return remote
    }

    /// The record-stop that waits; when saving is refused (a name taken
    /// without force), the result is collected again without saving.
    private static func collect(_ client: DaemonClient, _ request: DaemonCall) -> RemoteRecordingOutcome {
        do {
            return RemoteRecordingOutcome(reply: .success(try client.call(request)), saveFailure: nil)
        } catch {
            let failure = DaemonCallError(error)
            guard request.has(.save), case .daemon = failure else {
                return RemoteRecordingOutcome(reply: .failure(failure), saveFailure: nil)
            }
            do {
                return RemoteRecordingOutcome(reply: .success(try client.call(.recordStop())), saveFailure: failure)
            } catch {
                return RemoteRecordingOutcome(reply: .failure(failure), saveFailure: nil)
            }
        }
    }

    /// Waits for the cancel (Ctrl-C), Enter, or the end; stops the
    /// recording unless it has ended already.
    private static func stopWhenAsked(
        _ remote: JobHandle<RemoteRecordingOutcome, Never>, job: JSONValue, stopper: DaemonClient, watchEnter: Bool
    ) {
        var watchEnter = watchEnter
        while remote.result == nil, !remote.isCancelled {
            // Harmless: only out of descriptors or memory (eventfd, poll); the recording is then stopped at once, its strokes kept and brought back by the waiting record-stop.
            guard let cancelled = try? remote.cancellation.fileDescriptor else { break }
            var descriptors: [(FileDescriptor, Poll.Events)] = [(cancelled, .readable)]
            if watchEnter { descriptors.append((.standardInput, .readable)) }
            // Harmless: as above.
            guard let ready = try? Poll.wait(descriptors, timeoutMilliseconds: nil) else { break }
            if ready.count > 1, !ready[1].isEmpty {
                do {
                    if let bytes = try FileDescriptor.standardInput.read(upTo: 256) {
                        if bytes.isEmpty { watchEnter = false }
                        if bytes.contains(where: { $0 == 10 || $0 == 13 }) { break }
                    }
                } catch {
                    watchEnter = false
                }
            }
        }
        // Harmless: a cancel refused (the recording ended meanwhile) or not delivered (the daemon gone) is told by the waiting record-stop, which has the result or the broken connection.
        if remote.result == nil { _ = try? stopper.call(.cancel(job: job)) }
    }
}
