import GestureModel

/// A bad argument to `gesturectl-button`: the message says which and what
/// is accepted. The executable prints it and exits with status 2.
public struct ButtonUsageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// `gesturectl-button`'s command line, parsed without a display.
public enum ButtonCommandLine {
    /// The version printed by `--version`; the same as `gesturectl --version`
    /// (GesturectlCommands' `Gesturectl.version`, which this target may not import).
    public static let version = "0.1.0"

    /// What the command line asks for.
    public enum Request: Hashable, Sendable {
        case run(ButtonSettings)
        case help
        case version
        /// `--manpage`: the manual page (roff), made from the help.
        case manualPage
        /// `--desktop-entry`: the `.desktop` launcher's text.
        case desktopEntry
        /// `--autostart on|off`: start it with the session, or no longer.
        case autostart(Bool)
    }

    /// The text `--help` prints.
    public static let help = """
        gesturectl-button — AssistiveTouch's floating button, on a Linux desktop or tablet

        Usage: gesturectl-button [OPTIONS]

        A round button stays above every window, on the edge of the screen. Drag it
        to another place: when you let go it moves to the nearest edge and stays
        there, also after a restart (the place is kept in
        $XDG_STATE_HOME/gesturectl/button.json). A tap opens its menu beside it; a
        click outside the menu or Escape closes it. Untouched for a few seconds it
        fades, so that it hides less of what is beneath; touch it or move the
        pointer over it and it is clear again. Only the button takes clicks: a click
        anywhere else reaches the window beneath.

        It stays above other windows where the compositor offers the layer shell
        (sway, KDE Plasma, Phosh, labwc, Hyprland) and on X11. Elsewhere (GNOME on
        Wayland) it says so once and runs as an ordinary small window.

        Actions (AssistiveTouch's Custom Actions; the words of the daemon's bindings):
          menu                       open the menu
          press:KEY                  press a button or key, as gesturectl press
                                     (press:screenshot, press:KEY_PLAYPAUSE; not
                                     power, which the menu offers after asking)
          play:NAME                  play a saved gesture where you click next
          create                     Create New Gesture: open the canvas
          fingertips:N               start N live fingertips, 2 to 10
          none                       nothing
        While a gesture is being placed or played, a tap (or Return) stops it,
        whatever the actions.

        Options:
          --size PIXELS              the button's width and height, 48 to 512 (60);
                                     48 px is the smallest a finger can hit reliably
          --idle-opacity FRACTION    how visible the idle button is, 0.1 to 1 (0.4)
          --idle-seconds SECONDS     how long untouched before it fades, 0.5 to 600 (3)
          --single-tap ACTION        what a tap does (menu)
          --double-tap ACTION        what a double tap does (none); with an
                                     action, a single tap waits for the
                                     double-tap timeout before it acts
          --long-press ACTION        what a long press does (none)
          --double-tap-timeout SECONDS
                                     the longest pause between the two taps of a
                                     double tap, 0.1 to 2 (0.3)
          --long-press-duration SECONDS
                                     how long a press is held to be a long press,
                                     0.2 to 5 (0.8)
          --socket PATH              the gesturectl daemon's socket (as gesturectl
                                     --socket; else $GESTURECTL_SOCKET, else
                                     $XDG_RUNTIME_DIR/gesturectl.sock if it is there,
                                     else /run/gesturectl/gesturectl.sock)
          --device DEVICE            the device you draw with for Create New Gesture
                                     and that moves live fingertips: an event
                                     node, a /dev/input/by-id link, a name (or a
                                     unique part of one), or vendor:product, as
                                     gesturectl record --device takes it (else
                                     the daemon's only touch or pointer device)
          --autostart on|off         start the button with each desktop session
                                     (an XDG autostart entry in
                                     ~/.config/autostart), or no longer; off
                                     until you turn it on
          --desktop-entry            print the .desktop launcher (the autostart
                                     entry's text), for packaging
          --manpage                  print this text as a manual page (roff)
          -h, --help                 this text
          --version                  the version

        The menu is the one of menu.json, as gesturectl menu shows it; its Customize
        Top Level Menu moves, adds and removes items (1 to 8) and resets it (after
        asking), writing menu.json for gesturectl menu and the daemon too. Everything
        it does goes through the gesturectl daemon: Saved gestures lists its library;
        choose one, then click where it should play, on the monitor you want
        (Escape, or a click on the button, cancels). While it plays the button
        shows a turning ring and a stop square: a tap on it stops the play. Without
        a daemon the menu says what to start, and tries again each time it opens.

        Create New Gesture opens a canvas over the whole screen, so that the
        windows beneath get none of your strokes; the daemon records from the
        drawing device (--device) and each stroke is drawn as you lift it. Stop
        ends the recording; then Review plays it on the canvas, Redo records it
        again, Save keeps it in the daemon's library under the name suggested
        (change it as you like), and Discard throws it away. Redo and Discard ask
        first (Keep it is the default). Fingertips 2 to 5 start live fingertips
        from the same device through the daemon: the button says how they are
        moved and how they end (after 5 s without input, or a tap on the button,
        which shows a turning ring meanwhile).

        Keyboard: Tab reaches the button, Return or Space opens its menu, the arrows
        move in the menu and Escape closes it. While a gesture is being placed,
        Return plays it where the pointer is (at the screen's centre when the
        pointer is elsewhere) and Escape cancels. In Customize Top Level Menu, Tab and
        the arrows move between its buttons, Return presses one, and Escape closes
        its question, then the panel. On the canvas, Tab and the arrows move
        between its controls, Return presses one (in the name: Save), and Escape
        answers a question with its default, else is Discard. Screen readers find
        the button as a push button named "gesturectl menu", and each of the
        panel's and the canvas's buttons by what it does ("Remove Home", "Save").

        One switch: bind a switch's key to the daemon's action {"screen-menu": {}}
        (its bind request, or its configuration's bindings). A press opens this menu
        and scans it: the highlighted item, framed, moves by itself (1 s per item,
        the first held 0.7 s longer, or the binding's scan_interval_ms and
        first_item_hold_ms; two rounds, then it waits for a press). A press picks
        the highlighted item (a sub-menu is scanned in turn), a long press goes
        back, and holding it 3 s (the emergency stop) stops every play and closes
        the menu. A chosen saved gesture plays at the centre of the button's
        monitor at the next press (a long press cancels); a press while it plays
        stops it.

        Settings for every start (the autostart entry gives no options) live in
        ~/.config/gesturectl/button-settings.json ($XDG_CONFIG_HOME), each member
        the option of the same name: {"size": 96, "double-tap": "press:screenshot"}.
        Options on the command line win over it; a file with a mistake is not used
        at all, and the button says which member is wrong.

        Examples:
          gesturectl-button                       # 60 px, fades to 40 % after 3 s
          gesturectl-button --size 96 --idle-opacity 0.7
          gesturectl-button --double-tap menu --single-tap none
          gesturectl-button --double-tap press:screenshot --long-press play:three-finger-swipe-up
          gesturectl-button --device "ELAN Touchscreen"   # draw with it

        Exit status: 0 when hidden from its menu ("Hide the button"), 1 when no
        display can be opened, 2 for a bad argument.
        """

    /// Parses the arguments after the program's name.
    public static func parse(_ arguments: [String]) throws(ButtonUsageError) -> Request {
        var settings = ButtonSettings()
        var index = 0
        func value(for option: String, inline: String?) throws(ButtonUsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw ButtonUsageError("\(option) needs a value (try --help)") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "-h", "--help":
                return .help
            case "--version":
                return .version
            case "--manpage":
                return .manualPage
            case "--desktop-entry":
                return .desktopEntry
            case "--autostart":
                switch try value(for: name, inline: inline) {
                case "on": return .autostart(true)
                case "off": return .autostart(false)
                case let other: throw ButtonUsageError("--autostart \(shown(other)): give on or off")
                }
            case "--size":
                let text = try value(for: name, inline: inline)
                guard let size = Int(text), size >= ButtonSettings.minimumSize, size <= ButtonSettings.maximumSize else {
                    throw ButtonUsageError(
                        "--size \(shown(text)): give a whole number of pixels from \(ButtonSettings.minimumSize) "
                            + "(the smallest target a finger hits reliably) to \(ButtonSettings.maximumSize)")
                }
                settings.size = size
            case "--idle-opacity":
                let text = try value(for: name, inline: inline)
                guard let opacity = Double(text), opacity.isFinite, opacity >= 0.1, opacity <= 1 else {
                    throw ButtonUsageError(
                        "--idle-opacity \(shown(text)): give a fraction from 0.1 (faint) to 1 (never fades), e.g. 0.4")
                }
                settings.idleOpacity = opacity
            case "--idle-seconds":
                settings.idleMicroseconds = try seconds(name, try value(for: name, inline: inline), from: 0.5, to: 600)
            case "--double-tap-timeout":
                settings.doubleTapMicroseconds = try seconds(name, try value(for: name, inline: inline), from: 0.1, to: 2)
            case "--long-press-duration":
                settings.longPressMicroseconds = try seconds(name, try value(for: name, inline: inline), from: 0.2, to: 5)
            case "--socket":
                let text = try value(for: name, inline: inline)
                guard !text.isEmpty, !text.utf8.contains(0) else {
                    throw ButtonUsageError("--socket needs the path of the daemon's socket, e.g. /run/gesturectl/gesturectl.sock")
                }
                settings.socketPath = text
            case "--device":
                let text = try value(for: name, inline: inline)
                guard !text.isEmpty, !text.utf8.contains(0) else {
                    throw ButtonUsageError(
                        "--device needs a device: an event node, a /dev/input/by-id link, a name or a part of one, or vendor:product")
                }
                settings.device = text
            case "--single-tap":
                settings.singleTapAction = try action(name, try value(for: name, inline: inline))
            case "--double-tap":
                settings.doubleTapAction = try action(name, try value(for: name, inline: inline))
            case "--long-press":
                settings.longPressAction = try action(name, try value(for: name, inline: inline))
            default:
                if argument.hasPrefix("-") {
                    throw ButtonUsageError("unknown option \(shown(argument)) (try --help)")
                }
                throw ButtonUsageError("unexpected argument \(shown(argument)): gesturectl-button takes only options (try --help)")
            }
            index += 1
        }
        return .run(settings)
    }

    private static func seconds(_ option: String, _ text: String, from low: Double, to high: Double) throws(ButtonUsageError) -> Int64 {
        guard let value = Double(text), value.isFinite, value >= low, value <= high else {
            throw ButtonUsageError("\(option) \(shown(text)): give seconds from \(DecimalText.shortest(low)) to \(DecimalText.shortest(high)), e.g. \(low < 1 ? "0.3" : "3")")
        }
        return Int64((value * 1_000_000).rounded())
    }

    private static func action(_ option: String, _ text: String) throws(ButtonUsageError) -> ButtonAction {
        do throws(ButtonUsageError) {
            return try ButtonAction.parse(text)
        } catch {
            throw ButtonUsageError("\(option) \(shown(text)): \(error.message)")
        }
    }

    /// An argument as shown in a message: quoted, control characters escaped.
    private static func shown(_ text: String) -> String {
        "'" + DisplayText.escaped(text) + "'"
    }
}
