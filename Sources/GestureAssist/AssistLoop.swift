import GestureEngine
import GestureModel
import GestureRecording
import InputSystem
import OperatingSystem

/// What an ``AssistLoop`` drives: a flow's runner, told what happened.
/// Called on the loop's thread only.
protocol AssistLoopClient: AnyObject {
    /// What other threads post (a job's end, a stroke).
    associatedtype Message: Sendable
    /// Whether the flow is over (the loop returns).
    var isFinished: Bool { get }
    /// The cancellation fired (Ctrl-C, a cancelled handle): the emergency stop.
    func cancelled()
    /// A message from another thread.
    func receive(_ message: Message)
    /// A key from the keyboard.
    func key(_ key: Key)
    /// A recognised press of the switch.
    func switchAction(_ action: SwitchAction, at time: Microseconds)
    /// When the loop must next call ``tick(at:)`` (scanning, an animation).
    func nextDeadline() -> Microseconds?
    /// The time moved on (called after every wake-up).
    func tick(at now: Microseconds)
    /// The keys reached their end (a closed pipe, /dev/null).
    func keysEnded()
}

/// The loop under every assist runner: one poll on the cancellation, the
/// messages other threads post (jobs, the switch's watch) and the keys,
/// with the client's next deadline as its timeout. It decodes keys, turns
/// the switch's presses into ``SwitchAction``s and says when the switch
/// comes and goes; the client does the rest.
final class AssistLoop<Message: Sendable> {
    private enum Post: Sendable {
        case message(Message)
        case switchEvent(TriggerEvent)
    }

    /// The keys, until their end of input (a closed pipe, /dev/null).
    private(set) var keyboard: KeyboardInput?
    /// The switch and its scanning, if the flow is run by one.
    let switchSetup: SwitchSetup?
    /// The clock deadlines are measured on.
    let clock: any RecordingClock
    /// Fires for the emergency stop from outside (Ctrl-C).
    let cancellation: CancellationSignal
    private let display: any AssistDisplay
    private let mailbox: Mailbox<Post>
    private var decoder = KeyDecoder()
    private var switchHandle: TriggerHandle?

    /// Creates a loop (nothing is watched until ``watchSwitch(_:)`` and ``run(_:)``).
    init(
        keyboard: KeyboardInput?, switchSetup: SwitchSetup?, clock: any RecordingClock, cancellation: CancellationSignal,
        display: any AssistDisplay
    ) throws(SystemError) {
        self.keyboard = keyboard
        self.switchSetup = switchSetup
        self.clock = clock
        self.cancellation = cancellation
        self.display = display
        mailbox = try Mailbox()
    }

    /// Posts a message into the loop, from any thread.
    var post: @Sendable (Message) -> Void {
        let mailbox = self.mailbox
        return { mailbox.post(.message($0)) }
    }

    /// Starts watching the switch with `start` (the setup's watch), on a
    /// handle it reports on, if there is a switch; its presses reach the
    /// client's ``AssistLoopClient/switchAction(_:at:)``.
    func watchSwitch(_ start: (TriggerRequest, TriggerHandle) throws -> Void) throws {
        guard let switchSetup, switchHandle == nil else { return }
        let handle = TriggerHandle()
        let mailbox = self.mailbox
        // Observed before the watch starts, so that its first report (the
        // switch is ready) is never missed.
        handle.observeProgress { mailbox.post(.switchEvent($0)) }
        try start(switchSetup.trigger, handle)
        switchHandle = handle
    }

    /// Stops watching the switch and waits until the watch has let the
    /// device go (so another flow can watch it, or the process can end).
    func stopSwitch() {
        switchHandle?.cancel()
        _ = switchHandle?.wait()
        switchHandle = nil
    }

    /// Runs until the client is finished.
    /// - Throws: ``OperatingSystem/SystemError`` when polling fails.
    func run<Client: AssistLoopClient>(_ client: Client) throws(SystemError) where Client.Message == Message {
        let cancelled = try cancellation.fileDescriptor
        while !client.isFinished {
            if cancellation.isCancelled {
                client.cancelled()
                continue
            }
            var descriptors: [(FileDescriptor, Poll.Events)] = [(cancelled, .readable), (mailbox.fileDescriptor, .readable)]
            if let keyboard { descriptors.append((keyboard.fileDescriptor, .readable)) }
            let now = clock.now()
            let timeout = client.nextDeadline().map { Poll.milliseconds(roundingUp: max(0, ($0 - now).rawValue)) }
            let ready = try Poll.wait(descriptors, timeoutMilliseconds: timeout)
            for post in mailbox.take() where !client.isFinished { deliver(post, to: client) }
            if ready.count > 2, !ready[2].isEmpty, let keyboard = self.keyboard, !client.isFinished {
                for key in readKeys(keyboard) where !client.isFinished { client.key(key) }
                if self.keyboard == nil, !client.isFinished { client.keysEnded() }
            }
            if !client.isFinished { client.tick(at: clock.now()) }
        }
    }

    private func deliver<Client: AssistLoopClient>(_ post: Post, to client: Client) where Client.Message == Message {
        switch post {
        case .message(let message):
            client.receive(message)
        case .switchEvent(.press(let press, let time)):
            guard let action = SwitchAction(press) else { return }
            client.switchAction(action, at: time)
        case .switchEvent(.connected(_, let name)):
            display.say(Announcement("The switch is ready: \(DisplayText.escaped(name))."))
        case .switchEvent(.disconnected(let reason)):
            display.say(Announcement("The switch is not available: \(DisplayText.escaped(reason))."))
        }
    }

    private func readKeys(_ keyboard: KeyboardInput) -> [Key] {
        let bytes: [UInt8]?
        do {
            bytes = try keyboard.fileDescriptor.read(upTo: 256)
        } catch {
            return []
        }
        guard let bytes else { return [] }
        // End of input: keys are done, the switch may go on.
        guard !bytes.isEmpty else {
            self.keyboard = nil
            return []
        }
        return decoder.decode(bytes)
    }
}
