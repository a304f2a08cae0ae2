import CommandKit
import GestureAssist
import GestureEngine
import GestureModel
import OperatingSystem

/// `menu`: AssistiveTouch's menu of actions for switch users (buttons,
/// saved gestures, Create New Gesture, live fingertips, sub-menus), by keys or one switch.
enum MenuCommand {
    /// `menu`'s own options (the rest are ``AssistOptions``').
    enum Options {
        static let config: TypedOption<String?> = .string(
            "config", valueName: "file", help: "The menu's configuration (default: ~/.config/gesturectl/menu.json).",
            completion: .files)
        static let reset: TypedOption<Bool> = .flag(
            "reset", help: "Delete the configuration file, so the default menu applies again, and exit.")
        static let leadIn: TypedOption<Microseconds> = .duration(
            "lead-in", valueName: "time", help: "Wait this long after a new play device is ready before playing (lets readers open it).",
            type: .duration(in: 0...60_000_000), default: PlayRequest.defaultLeadIn)
        static let fingertipsIdle: TypedOption<Microseconds> = .duration(
            "fingertips-idle", valueName: "time",
            help: "Live fingertips go away after this long without input (0: only when stopped), for who needs longer to move.",
            type: .duration(in: 0...86_400_000_000), default: FingertipsOptions.defaultIdle)
    }

    static let command = Command(
        name: "menu", abstract: "A menu of actions: press buttons, play saved gestures, create new ones (keys or one switch).",
        discussion: """
            AssistiveTouch's menu. By default its top level is:
              Home · Back key · Volume up · Volume down · Buttons menu ·
              Saved gestures menu · Create New Gesture · Gestures menu ·
              Close the menu
            Buttons lists every button (volume up and down, mute, lock screen,
            screenshot, home, back, menu, power); Saved gestures lists the
            library (AssistiveTouch's Custom), each played on a virtual --as
            device (it acts on the live desktop); Create New Gesture runs
            'gesturectl create' and comes back. Gestures, as AssistiveTouch
            names it, offers 2, 3, 4 and 5 fingertips (its live
            multi-finger input, as 'gesturectl fingertips N'): the drawing device (--device, else the only touch
            or pointer device) moves them until a press of the switch (or
            Escape) stops them; when they go away by themselves (--fingertips-idle, 5 s without
            input, the device unplugged) the menu is back. The switch must
            be another device than the one moving the fingertips. Power always asks first, and its default is not to
            press. The menu stays open after each action and says what was
            done ("Pressed volume up."); every sub-menu ends with "Back to …",
            and the top level with "Close the menu".

            Keys: arrows and Tab move, Return picks, 1-9 pick directly, Escape
            goes back (on the top level it closes the menu, while an action
            runs it stops it). With one switch (--switch DEVICE --switch-key
            KEY) the menu scans as in 'gesturectl create': a press picks the
            highlighted item, a long press goes back (never out of the top
            level: choose Close the menu), holding 3 s is the emergency stop
            (everything is cancelled and released, and the menu closes).
            Ctrl-C does the same.

            Customize the top level in a JSON file: --config FILE, else
            $XDG_CONFIG_HOME/gesturectl/menu.json, else
            ~/.config/gesturectl/menu.json. Items, in order (at most 30 a menu):
              {"items": [
                {"press": "volume-up"},
                {"press": "KEY_PLAYPAUSE", "label": "Play or pause"},
                {"play": "three-finger-swipe-up"},
                {"menu": "buttons"},
                {"menu": "gestures"},
                {"menu": "fingertips"},
                {"fingertips": 3, "label": "Three fingers"},
                {"menu": "Media", "items": [{"press": "mute"}, {"press": "KEY_NEXTSONG"}]},
                {"create": {}}
              ]}
            press takes what 'gesturectl press' takes; play a saved gesture's
            name; menu "buttons", "gestures" (the Saved gestures menu) or
            "fingertips" (the Gestures menu of live fingertips), or a title with
            its own items; fingertips how many live fingertips (2-10); label replaces the shown and spoken name. A file with a
            mistake is refused whole, naming the file and the field. --reset
            deletes the file: the defaults apply again.

            Exit status: 0 when closed, 130 after Ctrl-C or the emergency stop.

            Examples:
              gesturectl menu
              gesturectl menu --switch usb-Ablenet_Switch-event-kbd --switch-key KEY_ENTER --scan-interval 1.5s
              gesturectl menu --config ~/menus/media.json --plain --speak
              gesturectl menu --reset
            """,
        section: CreateCommand.section,
        options: [Options.config, Options.reset, Options.leadIn, Options.fingertipsIdle]
            + AssistOptions.drawingOptions + AssistOptions.switchOptions + AssistOptions.outputOptions
    ) { values, context in
        guard let path = values[Options.config].map(context.resolve) ?? MenuConfigurationFile.userPath(environment: context.environment)
        else {
            throw CommandFailure.usage("no configuration path: HOME and XDG_CONFIG_HOME are not set; give --config FILE")
        }
        if values[Options.reset] {
            do throws(MenuConfigurationError) {
                let removed = try MenuConfigurationFile.reset(path: path)
                context.note(removed ? "deleted \(shown(path)); the menu is back to its defaults" : "no \(shown(path)); the menu has its defaults")
            } catch {
                throw CommandFailure.failure(error.message)
            }
            return
        }
        let loaded: MenuConfiguration?
        do throws(MenuConfigurationError) {
            loaded = try MenuConfigurationFile.load(path: path)
        } catch {
            throw CommandFailure.failure(error.message)
        }
        // The user's own file may be absent (the defaults apply); one named with --config must be there.
        if loaded == nil && values.isGiven(Options.config) {
            throw CommandFailure.notFound("--config: there is no \(shown(path)) (without --config the defaults apply)")
        }
        let configuration = loaded ?? .defaults
        let switchSetup = try AssistOptions.switchSetup(values)
        if let problem = context.libraryFolderProblem { throw CommandFailure.failure(problem) }
        let (createSetup, kind) = try AssistOptions.createSetup(values, context: context)
        let leadIn = values[Options.leadIn]
        let fingertipsIdle = values[Options.fingertipsIdle]
        // The menu's devices are its own: closed when it closes.
        let setup = MenuSetup(
            engine: context.engine, library: context.library,
            play: { PlayRequest(gesture: $0, target: .kind(kind), leadIn: leadIn, keepDevice: true) }, create: createSetup,
            playLabel: AssistOptions.playLabel(kind), closesKeptDevices: true,
            fingertipsIdle: fingertipsIdle == .zero ? nil : fingertipsIdle)
        let library = LibraryNames(context.library)
        warnAboutMissingGestures(configuration.items, library: library, path: path, context: context)
        let display = AssistOptions.display(values, context: context)

        let keys = AssistOptions.keyboard(terminal: context.isStandardInputTerminal)
        if keys == nil && switchSetup == nil {
            throw CommandFailure.usage(
                "nothing can operate the menu: standard input is no terminal, pipe or file of keys, and no --switch was given")
        }
        let terminal = AssistOptions.keyboardMode(context)
        defer { terminal?.restore() }
        // Ctrl-C cancels from before the menu's first line, which invites
        // it: a signal right after that line found no subscriber and ended
        // the command at once (the race fixed in fingertips, issue 36).
        let handle = JobHandle<Result<ActionMenuOutcome, CreateFailure>, Never>()
        context.cancelledBySignals(handle)
        _ = try MenuSession.start(
            ActionMenu(configuration: configuration, library: library), setup: setup, display: display,
            keyboard: keys, switchSetup: switchSetup, handle: handle)
        let result = await handle.finished()
        switch result {
        case .success(.closed):
            return
        case .success(.emergencyStopped):
            throw CommandFailure.exit(.interrupted)
        case .failure(let failure):
            throw CommandFailure.failure(failure.message)
        }
    }

    /// A gesture the configuration names that the library does not have
    /// stays in the menu (choosing it says so): a switch user must not lose
    /// the whole menu to one deleted gesture. It is said here, once; so is
    /// a library that cannot be listed.
    private static func warnAboutMissingGestures(
        _ items: [MenuEntry], library: LibraryNames, path: String, context: CommandContext
    ) {
        var played: [String] = []
        func visit(_ items: [MenuEntry]) {
            for item in items {
                switch item.action {
                case .play(let name): played.append(name)
                case .menu(_, let items): visit(items)
                default: break
                }
            }
        }
        visit(items)
        guard !played.isEmpty else { return }
        let names: Set<String>
        do {
            names = Set(try library.gestureNames())
        } catch {
            context.warn("\(shown(path)): cannot check its gestures against the library: \(error)")
            return
        }
        for name in played where !names.contains(name) {
            context.warn("\(shown(path)): no saved gesture named \"\(name)\"; its item will say so when chosen")
        }
    }
}
