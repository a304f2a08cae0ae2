import CommandKit
import GestureEngine
import GesturePlayback
import OperatingSystem

/// What gesturectl's commands run on: the engine every command that
/// touches devices goes through, and the signals that cancel its jobs.
/// Injected through the command's context (``CommandKit/CommandServices``):
/// the executable's are the process's own (``Gesturectl/prepareProcess()``);
/// a test's make an engine over test devices, and run commands in process.
public struct GesturectlServices: Sendable {
    /// The engine: plays, presses, recordings, imports, fingertips, the daemon's.
    public var engine: Engine
    /// SIGINT, SIGTERM and SIGHUP as events: the commands' jobs are cancelled by them.
    public var signals: SignalRouter

    /// Services over `engine` and `signals`.
    public init(engine: Engine, signals: SignalRouter) {
        self.engine = engine
        self.signals = signals
    }
}

extension CommandContext {
    /// The context with `services` for gesturectl's commands.
    public func with(_ services: GesturectlServices) -> CommandContext {
        var context = self
        context.services[GesturectlServices.self] = services
        return context
    }

    /// The services the commands run on.
    private var gesturectl: GesturectlServices {
        guard let services = services[GesturectlServices.self] else {
            preconditionFailure("gesturectl: no GesturectlServices in the command's context (Gesturectl.main(services:) puts them there)")
        }
        return services
    }

    /// The engine the commands use.
    var engine: Engine { gesturectl.engine }

    /// The signals that cancel the commands' jobs.
    var signals: SignalRouter { gesturectl.signals }

    /// From now until it ends, SIGINT, SIGTERM and SIGHUP cancel the job
    /// (the CLI's mapping of signals): the job then ends as it does when
    /// stopped, and the command reports that. Call it as soon as the job
    /// exists, before telling the user that Ctrl-C stops it: a signal that
    /// comes while no job listens ends the process at once.
    func cancelledBySignals<Output, Progress>(_ handle: JobHandle<Output, Progress>) {
        let subscription = signals.cancelling(handle)
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
        let subscription = signals.cancelling(job.handle)
        defer { subscription.cancel() }
        return await job.finished()
    }
}
