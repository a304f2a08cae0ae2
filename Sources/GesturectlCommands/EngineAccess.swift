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

    /// Waits for a job, cancelling it on SIGINT, SIGTERM or SIGHUP meanwhile
    /// (the CLI's mapping of signals): the job then ends as it does when
    /// stopped, and the command reports that.
    func untilFinished<Output, Progress>(_ handle: JobHandle<Output, Progress>) async -> Output {
        let subscription = Gesturectl.signals.cancelling(handle)
        defer { subscription.cancel() }
        return await handle.finished()
    }

    /// Waits for a play (see ``untilFinished(_:)-(JobHandle<Output,Progress>)``),
    /// including the destruction of its device.
    func untilFinished(_ job: PlayJob) async -> PlaybackResult {
        let subscription = Gesturectl.signals.cancelling(job.handle)
        defer { subscription.cancel() }
        return await job.finished()
    }
}
