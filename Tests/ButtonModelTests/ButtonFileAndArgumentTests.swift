import ButtonModel
import Testing

@Suite struct PositionFile {
    @Test func roundTrip() throws {
        let position = EdgePosition(edge: .bottom, fraction: 0.3125)
        let text = ButtonPositionFile.encode(position)
        #expect(String(decoding: text, as: UTF8.self) == "{\"version\": 1, \"edge\": \"bottom\", \"fraction\": 0.3125}\n")
        #expect(try ButtonPositionFile.parse(text) == position)
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("{\"version\": 1, \"edge\": \"right\"", "not JSON"),
        ("[]", "not a JSON object"),
        ("{\"version\": 2, \"edge\": \"right\", \"fraction\": 0.5}", "version 2"),
        ("{\"edge\": \"right\", \"fraction\": 0.5}", "\"version\" is missing"),
        ("{\"version\": 1, \"edge\": \"middle\", \"fraction\": 0.5}", "\"edge\" is \"middle\""),
        ("{\"version\": 1, \"edge\": 3, \"fraction\": 0.5}", "\"edge\" is missing or not a string"),
        ("{\"version\": 1, \"edge\": \"left\", \"fraction\": 1.5}", "\"fraction\" is 1.5"),
        ("{\"version\": 1, \"edge\": \"left\", \"fraction\": \"x\"}", "\"fraction\" is missing or not a number"),
        ("{\"version\": 1, \"edge\": \"left\", \"fraction\": 0.5, \"colour\": 1}", "unknown key \"colour\""),
        ("{\"version\": 1, \"edge\": \"left\", \"fraction\": 1e999}", "\"fraction\""),
    ])
    func damagedFilesSayWhatIsWrong(text: String, expected: String) {
        #expect {
            try ButtonPositionFile.parse(Array(text.utf8))
        } throws: { error in
            "\(error)".utf8.count >= expected.utf8.count && contains("\(error)", expected)
        }
    }

    @Test func bytesThatAreNotUTF8OrTooManyDoNotTrap() {
        #expect(throws: ButtonPositionFileError.self) { try ButtonPositionFile.parse([0xFF, 0xFE, 0x00, 0x7B]) }
        #expect(throws: ButtonPositionFileError.self) { try ButtonPositionFile.parse(Array(repeating: 0x20, count: 5000)) }
    }

    @Test func pathFollowsXDG() {
        #expect(ButtonPositionFile.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/gesturectl/button.json")
        #expect(ButtonPositionFile.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/gesturectl/button.json")
        #expect(ButtonPositionFile.path(environment: [:]) == nil)
    }
}

@Suite struct Arguments {
    @Test func defaults() throws {
        #expect(try ButtonCommandLine.parse([]) == .run(ButtonSettings()))
        let settings = ButtonSettings()
        #expect(settings.size == 60 && settings.idleOpacity == 0.4 && settings.idleMicroseconds == 3_000_000)
        #expect(settings.doubleTapMicroseconds == 300_000 && settings.longPressMicroseconds == 800_000)
        #expect(settings.singleTapAction == .menu)
    }

    @Test func options() throws {
        guard case .run(let settings) = try ButtonCommandLine.parse([
            "--size", "96", "--idle-opacity=0.7", "--idle-seconds", "5", "--double-tap", "menu",
            "--double-tap-timeout", "0.5", "--long-press-duration", "1", "--single-tap", "none",
        ]) else {
            Issue.record("not a run")
            return
        }
        #expect(settings.size == 96)
        #expect(settings.idleOpacity == 0.7)
        #expect(settings.idleMicroseconds == 5_000_000)
        #expect(settings.doubleTapAction == .menu && settings.singleTapAction == .none)
        #expect(settings.doubleTapMicroseconds == 500_000 && settings.longPressMicroseconds == 1_000_000)
    }

    @Test("Custom Actions take the daemon's binding words: menu, none, press:KEY, play:NAME, create, fingertips:N")
    func customActions() throws {
        guard case .run(let settings) = try ButtonCommandLine.parse([
            "--single-tap", "press:Volume-Up", "--double-tap=press:key_playpause", "--long-press", "play:three-finger-swipe-up",
        ]) else {
            Issue.record("not a run")
            return
        }
        #expect(settings.singleTapAction == .press("volume-up"))
        #expect(settings.doubleTapAction == .press("KEY_PLAYPAUSE"))
        #expect(settings.longPressAction == .play("three-finger-swipe-up"))
        #expect(try ButtonAction.parse("menu") == .menu && ButtonAction.parse("none") == .none)
        #expect(ButtonAction.press("screenshot").description == "press:screenshot")
        #expect(ButtonAction.play("a:b").description == "play:a:b")
        #expect(try ButtonAction.parse("play:a:b") == .play("a:b"))
        #expect(try ButtonAction.parse("create") == .create && ButtonAction.parse("fingertips:3") == .fingertips(3))
        #expect(ButtonAction.fingertips(5).description == "fingertips:5" && ButtonAction.create.description == "create")
        #expect(contains(ButtonCommandLine.help, "fingertips:N"))
        #expect(contains(ButtonCommandLine.help, "press:KEY"))
    }

    @Test("--autostart on|off: off until turned on; the entry's place follows XDG; a bad value is refused")
    func autostart() throws {
        #expect(try ButtonCommandLine.parse(["--autostart", "on"]) == .autostart(true))
        #expect(try ButtonCommandLine.parse(["--autostart=off"]) == .autostart(false))
        #expect(throws: ButtonUsageError.self) { try ButtonCommandLine.parse(["--autostart", "yes"]) }
        #expect(throws: ButtonUsageError.self) { try ButtonCommandLine.parse(["--autostart"]) }
        #expect(ButtonAutostart.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/autostart/gesturectl-button.desktop")
        #expect(ButtonAutostart.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/autostart/gesturectl-button.desktop")
        #expect(ButtonAutostart.path(environment: [:]) == nil)
        #expect(contains(ButtonAutostart.desktopEntry, "Exec=gesturectl-button\n"))
        #expect(contains(ButtonAutostart.desktopEntry, "[Desktop Entry]\nType=Application\n"))
        #expect(contains(ButtonCommandLine.help, "--autostart on|off"))
    }

    @Test func helpAndVersion() throws {
        #expect(try ButtonCommandLine.parse(["--help"]) == .help)
        #expect(try ButtonCommandLine.parse(["--version"]) == .version)
        #expect(contains(ButtonCommandLine.help, "--idle-opacity"))
    }

    @Test(arguments: [
        (["--size", "47"], "from 48"),
        (["--size", "sixty"], "--size 'sixty'"),
        (["--size"], "needs a value"),
        (["--idle-opacity", "0"], "from 0.1"),
        (["--idle-opacity", "nan"], "from 0.1"),
        (["--double-tap", "dance"], "menu, press:KEY, play:NAME, create, fingertips:N or none"),
        (["--single-tap", "press:volum-up"], "--single-tap 'press:volum-up': press: unknown button \"volum-up\""),
        (["--single-tap", "press:KEY_A"], "not a key gesturectl's virtual keyboard sends"),
        (["--long-press", "press:power"], "only the menu's Buttons offers it, after asking"),
        (["--long-press", "press"], "press needs what to press"),
        (["--double-tap", "play:"], "play: "),
        (["--double-tap", "play:../x"], "--double-tap 'play:../x': play: "),
        (["--double-tap", "create:x"], "the actions are"),
        (["--double-tap", "fingertips"], "fingertips needs how many"),
        (["--double-tap", "fingertips:1"], "give how many, 2 to 10"),
        (["--double-tap", "fingertips:11"], "give how many, 2 to 10"),
        (["--double-tap", "fingertips:x\u{1B}"], "fingertips:x<U+001B>"),
        (["--double-tap", "menu:x"], "the actions are"),
        (["--double-tap", "play:a\u{1B}b"], "<U+001B>"),
        (["--frobnicate"], "unknown option"),
        (["extra"], "takes only options"),
        (["--size", "6\u{1B}0"], "<U+001B>"),
    ])
    func badArgumentsSayWhy(arguments: [String], expected: String) {
        #expect {
            try ButtonCommandLine.parse(arguments)
        } throws: { error in
            contains("\(error)", expected)
        }
    }
}

/// Whether `text` contains `part` (without the string-processing module).
func contains(_ text: String, _ part: String) -> Bool {
    let haystack = Array(text.utf8)
    let needle = Array(part.utf8)
    guard needle.count <= haystack.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
        return true
    }
    return false
}

@Suite struct ManualPageAndLauncher {
    @Test("The manual page is the help's text in roff: name, synopsis, each option an entry")
    func manualPageFromTheHelp() throws {
        #expect(try ButtonCommandLine.parse(["--manpage"]) == .manualPage)
        #expect(try ButtonCommandLine.parse(["--desktop-entry"]) == .desktopEntry)
        let page = ButtonManualPage.roff(date: "2026-12-06")
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.first == ".TH \"GESTURECTL-BUTTON\" \"1\" \"2026-12-06\" \"gesturectl-button \(ButtonCommandLine.version)\" \"User Commands\"")
        #expect(lines.contains("gesturectl\\-button \\- AssistiveTouch's floating button, on a Linux desktop or tablet"))
        #expect(lines.contains(".B gesturectl\\-button [OPTIONS]"))
        for heading in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH \"ACTIONS\"", ".SH \"OPTIONS\"", ".SH \"EXAMPLES\"", ".SH \"EXIT STATUS\""] {
            #expect(lines.contains(heading), "\(heading)")
        }
        for option in ["\\-\\-size PIXELS", "\\-\\-double\\-tap\\-timeout SECONDS", "\\-\\-manpage", "press:KEY", "\\-h, \\-\\-help"] {
            #expect(lines.contains(".B " + option), "\(option)")
        }
        // No line starts with a control character roff would take for a request.
        for line in lines where !line.hasPrefix(".") {
            #expect(!line.hasPrefix("'"))
        }
        #expect(!page.contains("\n\n"))
    }

    @Test func datesForSourceDateEpoch() {
        #expect(ButtonManualPage.date(secondsSince1970: 0) == "1970-01-01")
        #expect(ButtonManualPage.date(secondsSince1970: 951_782_400) == "2000-02-29")
        #expect(ButtonManualPage.date(secondsSince1970: 1_796_515_200) == "2026-12-06")
    }

    @Test func launcherIsTheAutostartEntry() {
        let entry = ButtonAutostart.desktopEntry
        #expect(entry.hasPrefix("[Desktop Entry]\n"))
        #expect(contains(entry, "\nExec=gesturectl-button\n") && contains(entry, "\nType=Application\n"))
    }
}

@Suite("Targets grow with the desktop's text")
struct TextScaleTests {
    @Test("The text scale is the font resolution over 96, never below 1 nor above 4; none said: 1")
    func textScale() {
        #expect(ButtonSettings.textScale(dpi: 96) == 1)
        #expect(ButtonSettings.textScale(dpi: 144) == 1.5)
        #expect(ButtonSettings.textScale(dpi: -1) == 1)
        #expect(ButtonSettings.textScale(dpi: 72) == 1)
        #expect(ButtonSettings.textScale(dpi: 10_000) == 4)
        #expect(ButtonSettings.textScale(dpi: .nan) == 1)
    }

    @Test("The button and the smallest target grow with it; the button stays within its largest size")
    func scaled() {
        var settings = ButtonSettings()
        #expect(settings.scaled(textScale: 1.5).size == 90)
        #expect(settings.scaled(textScale: 1).size == 60)
        #expect(ButtonSettings.minimumTarget(textScale: 1) == 48)
        #expect(ButtonSettings.minimumTarget(textScale: 1.25) == 60)
        settings.size = 400
        #expect(settings.scaled(textScale: 2).size == ButtonSettings.maximumSize)
    }
}

@Suite("The settings file, for every start")
struct ButtonSettingsFileTests {
    private func arguments(_ text: String) throws(ButtonUsageError) -> [String] {
        try ButtonSettingsFile.arguments(from: Array(text.utf8), path: "/home/ann/.config/gesturectl/button-settings.json")
    }

    @Test("Its members are the options of the same names; the command line's options win")
    func membersAreOptions() throws {
        let fromFile = try arguments(#"{"size": 96, "idle-opacity": 0.7, "double-tap": "press:screenshot", "long-press-duration": 1}"#)
        #expect(fromFile == ["--size", "96", "--idle-opacity", "0.7", "--double-tap", "press:screenshot", "--long-press-duration", "1"])
        guard case .run(let settings) = try ButtonCommandLine.parse(fromFile + ["--size", "72"]) else {
            Issue.record("not a run")
            return
        }
        #expect(settings.size == 72)
        #expect(settings.idleOpacity == 0.7)
        #expect(settings.doubleTapAction == .press("screenshot"))
        #expect(settings.longPressMicroseconds == 1_000_000)
    }

    @Test("A mistake names the file and the member, and refuses the whole file")
    func mistakes() {
        func message(_ text: String) -> String? {
            do throws(ButtonUsageError) {
                _ = try arguments(text)
                return nil
            } catch {
                return error.message
            }
        }
        let path = "/home/ann/.config/gesturectl/button-settings.json"
        let tooSmall = message(#"{"size": 10}"#) ?? ""
        #expect(tooSmall.hasPrefix("\(path): \"size\": --size") && tooSmall.contains("give a whole number of pixels from 48"), "\(tooSmall)")
        #expect(message(#"{"colour": "red"}"#)?.hasPrefix("\(path): unknown setting \"colour\" (known: size,") == true)
        #expect(message(#"{"help": "1"}"#)?.contains("unknown setting \"help\"") == true)
        #expect(message(#"{"size": [1]}"#) == "\(path): \"size\" must be a number or a string")
        #expect(message("[1, 2]")?.hasPrefix("\(path): must be an object") == true)
        #expect(message("{\"size\": ")?.hasPrefix("\(path): not JSON") == true)
        #expect(message(String(repeating: " ", count: ButtonSettingsFile.maximumBytes + 1))?.contains("larger than") == true)
        #expect(message(#"{"double-tap": "play:../../etc"}"#)?.contains("\"double-tap\"") == true)
    }

    @Test("Where it is: XDG_CONFIG_HOME, else ~/.config; nowhere without an absolute folder")
    func path() {
        #expect(ButtonSettingsFile.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/gesturectl/button-settings.json")
        #expect(ButtonSettingsFile.path(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/gesturectl/button-settings.json")
        #expect(ButtonSettingsFile.path(environment: [:]) == nil)
    }
}
