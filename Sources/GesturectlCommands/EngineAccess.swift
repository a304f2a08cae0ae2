import CommandKit
import GestureEngine
import GesturePlayback
import OperatingSystem

extension Gesturectl {
    /// The process's engine: every command that touches devices goes through it.
    static let engine = Engine()
    /// SIGINT, SIGTERM and SIGHUP as events (started by ``main()``).
    static let signals = SignalRouter()
}

extension CommandContext {
    /// The engine the commands use.
    var engine: Engine { Gesturectl.engine }

    /// The signals that cancel the commands' jobs.
    var signals: SignalRouter { Gesturectl.signals }

    /// From now until it ends, SIGINT, SIGTERM and SIGHUP cancel the job
    /// (the CLI's mapping of signals): the job then ends as it does when
    /// stopped, and the command reports that. Call it as soon as the job
    /// exists, before telling the user that Ctrl-C stops it: a signal that
    /// comes while no job listens ends the process at once.
    func cancelledBySignals<Output, Progress>(_ handle: JobHandle<Output, Progress>) {
        let subscription = Gesturectl.signals.cancelling(handle)
        handle.onCompletion { _ in subscription.cancel() }
    }

    /// Waits for a job, which signals cancel meanwhile (see ``cancelledBySignals(_:)``).
    func untilFinished<Output, Progress>(_ handle: JobHandle<Output, Progress>) async -> Output {
        cancelledBySignals(handle)
        return await handle.finished()
    }

    /// Waits for a play (see ``untilFinished(_:)-(JobHandle<Output,Progress>)``),
    /// including the destruction of its device.
    func untilFinished(_ job: PlayJob) async -> PlaybackResult {
        // Held through the device's linger too, so a second Ctrl-C then
        // does not cut the linger short.
        let subscription = Gesturectl.signals.cancelling(job.handle)
        defer { subscription.cancel() }
        return await job.finished()
    }
}
