import CommandKit
import GestureAssist
import GestureEngine
import GestureLibrary
import GestureModel
import GestureRecording
import GestureRender
import OperatingSystem

/// `create`: AssistiveTouch's "Create New Gesture" as a guided flow in the
/// terminal, by keys or by one switch.
enum CreateCommand {
    static let section = "Assistive"

    static let command = Command(
        name: "create", abstract: "Create a gesture step by step: draw strokes one after another, review, save (keys or one switch).",
        discussion: """
            AssistiveTouch's "Create New Gesture". Recording starts at the first
            touch (or the first button-down of a mouse, trackball or head
            pointer); each stroke you lift becomes a finger, and all of them
            play together. Each stroke is announced as it lands:
              Stroke 2: swipe down · 0.60 s · 40 mm
            Stop with Return (or after --idle-timeout without a touch), then
            choose: Review (a picture in the terminal, and an SVG written to
            --picture), Save, Add a stroke, Undo last stroke, Record again,
            Play on a virtual device (this acts on the live desktop), Discard.
            Return picks the highlighted choice (never a destructive one by
            default), arrows and Tab move, 1-9 pick directly, Escape goes
            back. Discard, Record again (when there are strokes) and saving over
            an existing name ask first.

            With one switch (--switch DEVICE --switch-key KEY, the device named
            by a stable identity as 'gesturectl devices' shows it) menus scan:
            one item is highlighted at a time (--scan-interval, default 1 s;
            the first item --first-item-hold longer, default 0.7 s), two loops
            (--scan-loops), then scanning pauses until the next press. A press
            picks the highlighted item, a long press (--long-press, 800 ms)
            goes back, holding 3 s is the emergency stop: everything is
            cancelled and released. Presses that follow a release within
            --debounce are ignored. While recording, presses do nothing unless
            --switch-stops-recording; recording ends after --idle-timeout. By
            switch, Save offers the suggested name (rename it later).

            The drawing device is grabbed while recording, so strokes do not
            act on the desktop (--no-grab keeps it live). Every state change
            is one line of plain text; --plain (automatic when standard output
            is no terminal or TERM is dumb) prints only those lines, with no
            escape sequences. --speak also speaks them with spd-say
            (speech-dispatcher), in words: "2 fingers, swipe down, 0.6
            seconds, 40 millimetres". Colour is never the only signal, and
            NO_COLOR turns it off.

            If the drawing device goes away (unplugged), the flow names it and
            the menu offers only what needs no drawing: Review, Save, Discard.
            When the keys end (a pipe or file of keys) and there is no switch,
            nothing can choose any more: a recording in progress stops, the
            flow says that nothing was saved and how many strokes are
            discarded, and exits with status 1.

            Exit status: 0 when saved, 1 when discarded or failed (and when the
            keys end with nothing saved), 130 after Ctrl-C or the emergency
            stop (nothing is saved then).

            Examples:
              gesturectl create --device "ELAN Touchscreen"
              gesturectl create --switch usb-Ablenet_Switch-event-kbd --switch-key KEY_ENTER --scan-interval 1.5s
              gesturectl create --plain --speak
            """,
        section: section,
        options: AssistOptions.drawingOptions + AssistOptions.switchOptions + AssistOptions.outputOptions
    ) { values, context in
        let switchSetup = try AssistOptions.switchSetup(values)
        let library = context.library
        if let problem = context.libraryFolderProblem { throw CommandFailure.failure(problem) }
        let (setup, kind) = try AssistOptions.createSetup(values, context: context)
        let display = AssistOptions.display(values, context: context)

        // Keys come from standard input: a terminal in character mode, or a
        // pipe (scripts, tests). Without either, only the switch operates it.
        let terminal = AssistOptions.keyboardMode(context)
        defer { terminal?.restore() }
        let keys = AssistOptions.keyboard(terminal: context.isStandardInputTerminal)
        if keys == nil && switchSetup == nil {
            throw CommandFailure.usage(
                "nothing can operate the flow: standard input is no terminal, pipe or file of keys, and no --switch was given")
        }
        let flow = CreateFlow(library: LibraryNames(library), playLabel: AssistOptions.playLabel(kind))
        // Ctrl-C cancels from before the flow's first prompt, which invites
        // it: a signal right after the prompt found no subscriber and ended
        // the command at once (the race fixed in fingertips, issue 36).
        let handle = JobHandle<Result<CreateOutcome, CreateFailure>, Never>()
        context.cancelledBySignals(handle)
        _ = try CreateSession.start(
            flow: flow, setup: setup, display: display, keyboard: keys, switchSetup: switchSetup, handle: handle)
        let result = await handle.finished()
        switch result {
        case .success(.saved(_, let path)):
            context.note("saved in \(shown(path))")
        case .success(.discarded):
            throw CommandFailure.exit(.failure)
        case .success(.emergencyStopped):
            throw CommandFailure.exit(.interrupted)
        case .failure(let failure):
            throw CommandFailure.failure(failure.message)
        }
    }
}
