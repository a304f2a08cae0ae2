import GestureFormat
import OperatingSystem

/// What live fingertips started through the daemon tell as they run.
public enum RemoteFingertipsEvent: Sendable {
    /// They are ready: the line to say.
    case ready(String)
    /// They touched (`true`) or lifted.
    case touching(Bool)
}

/// How live fingertips started through the daemon ended, as the client sees it.
public enum RemoteFingertipsOutcome: Sendable {
    /// They went away: why (`nil` for a reason this client does not know) and the daemon's words.
    case ended(FingertipsEndCode?, message: String)
    /// The connection broke before they ended.
    case lost(DaemonCallError)
}

/// The client side of live fingertips started through the daemon
/// (`gesturectl --socket PATH fingertips N`): one connection subscribed to
/// `fingertips` events before they start follows them until they end
/// (thread `gesturectl-tipw`); the other, which started them, cancels them
/// when the handle is cancelled (Ctrl-C, SIGTERM; thread `gesturectl-tipc`),
/// and its closing ends them too (the daemon's `on_disconnect`).
public enum RemoteFingertips {
    /// The following thread.
    public static let followingThread = ThreadOptions(name: "gesturectl-tipw")
    /// The cancelling thread.
    public static let cancellingThread = ThreadOptions(name: "gesturectl-tipc")

    /// Starts fingertips with `request` (a ``DaemonCall/fingertips(count:device:layout:spacingMillimetres:speed:idleMilliseconds:absolute:kind:keep:)``)
    /// and follows them: the reply, and the handle whose progress is what
    /// they do (also told to `events`, from the start: none is missed) and
    /// whose outcome is their end.
    /// - Throws: ``DaemonError`` (the daemon refused them), ``DaemonUnreachable``,
    ///   ``OperatingSystem/SystemError`` when a thread cannot start.
    public static func start(
        _ request: DaemonCall, client: sending DaemonClient, watcher: sending DaemonClient,
        events: @escaping @Sendable (RemoteFingertipsEvent) -> Void
    ) throws -> (result: FingertipsStartResult, handle: JobHandle<RemoteFingertipsOutcome, RemoteFingertipsEvent>) {
        _ = try watcher.call(.subscribe([.fingertips]))
        // A reply without a member it must have is an error naming it.
        let result = try FingertipsStartResult(try client.call(request))
        let job = JSONValue.integer(result.job)
        let handle = JobHandle<RemoteFingertipsOutcome, RemoteFingertipsEvent>()
        try DedicatedThread.start(followingThread) { follow(job, watcher: watcher, handle: handle, events: events) }
        try DedicatedThread.start(cancellingThread) { cancelWhenAsked(job, client: client, handle: handle) }
        // Wakes the canceller when they end by themselves.
        handle.onCompletion { _ in handle.cancel() }
        return (result, handle)
    }

    private static func follow(
        _ job: JSONValue, watcher: DaemonClient, handle: JobHandle<RemoteFingertipsOutcome, RemoteFingertipsEvent>,
        events: @Sendable (RemoteFingertipsEvent) -> Void
    ) {
        func tell(_ event: RemoteFingertipsEvent) {
            events(event)
            handle.report(event)
        }
        while true {
            let event: FingertipsEventMessage
            do {
                guard let ours = try FingertipsEventMessage(try watcher.nextEvent(), job: job) else { continue }
                event = ours
            } catch let error as DaemonUnreachable {
                handle.finish(.lost(.unreachable(error)))
                return
            } catch {
                // An event of theirs that cannot be read: what it says is unknown.
                handle.finish(.lost(DaemonCallError(error)))
                return
            }
            switch event.state {
            case .ready: if let line = event.line { tell(.ready(line)) }
            case .down: tell(.touching(true))
            case .up: tell(.touching(false))
            case .ended:
                // A reason this client does not know is nil, with the daemon's words.
                handle.finish(.ended(event.reason, message: event.message ?? ""))
                return
            }
        }
    }

    /// Waits for the cancel or the end; cancels them unless they ended already.
    private static func cancelWhenAsked(
        _ job: JSONValue, client: DaemonClient, handle: JobHandle<RemoteFingertipsOutcome, RemoteFingertipsEvent>
    ) {
        while handle.result == nil, !handle.isCancelled {
            // Harmless: only out of descriptors or memory (eventfd, poll); they are then cancelled at once.
            guard let cancelled = try? handle.cancellation.fileDescriptor,
                (try? Poll.wait([(cancelled, .readable)], timeoutMilliseconds: nil)) != nil
            else { break }
        }
        // Harmless: a cancel refused (they ended meanwhile) or not delivered (the daemon gone) is told by the follower, which sees their end or the broken connection.
        if handle.result == nil { _ = try? client.call(.cancel(job: job)) }
        // A daemon that never says they ended does not keep this client
        // (and a person's terminal) waiting (issue 36): after
        // ``confirmationTimeout`` the client ends, saying so. It lifts
        // nothing itself: the device is the daemon's, which lifts its
        // fingertips when this connection closes.
        let ended = CancellationSignal()
        handle.onCompletion { _ in ended.cancel() }
        let deadline = MonotonicClock.nowMicroseconds() + confirmationTimeoutMilliseconds * 1_000
        while handle.result == nil {
            let left = deadline - MonotonicClock.nowMicroseconds()
            // Harmless: a poll that cannot be made (out of descriptors) ends the wait as the deadline would.
            guard left > 0, let endedDescriptor = try? ended.fileDescriptor,
                (try? Poll.wait([(endedDescriptor, .readable)], timeoutMilliseconds: Int32((left + 999) / 1_000))) != nil
            else {
                handle.finish(.lost(.other(Self.unconfirmed)))
                return
            }
        }
    }

    /// How long a cancel waits for the daemon to say the fingertips ended, in ms.
    public static let confirmationTimeoutMilliseconds: Int64 = 2_000

    /// What a cancel the daemon never confirmed ends with.
    static let unconfirmed =
        "the daemon did not say within 2 s that the fingertips ended; nothing was lifted here (the device is the daemon's, and it ends them when this connection closes)"

}
