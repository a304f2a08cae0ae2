import ButtonModel
import CGtk
import GestureProtocol
import Glibc
import OperatingSystem

// gesturectl-button: AssistiveTouch's floating button (issue 38). The
// window is GTK 3 on the main thread; what it does is ButtonModel's.
/// Writes `text` to standard output and exits: 0 once it is all written,
/// 1 (saying why) when it cannot be (a full disk, a closed pipe): a text
/// that did not arrive is no success.
func printOrFail(_ text: String) -> Never {
    do throws(SystemError) {
        try FileDescriptor.standardOutput.writeAll(Array(text.utf8))
    } catch {
        say("cannot write standard output: \(error.errorMessage)")
        exit(1)
    }
    exit(0)
}

let request: ButtonCommandLine.Request
do throws(ButtonUsageError) {
    request = try ButtonCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    say(error.message)
    exit(2)
}
switch request {
case .help:
    printOrFail(ButtonCommandLine.help + "\n")
case .version:
    printOrFail("gesturectl-button \(ButtonCommandLine.version)\n")
case .manualPage:
    // Dated as the sources are when SOURCE_DATE_EPOCH says (reproducible packages).
    let epoch = ProcessEnvironment.variables()["SOURCE_DATE_EPOCH"].flatMap { Int64($0) } ?? Int64(time(nil))
    let page = ButtonManualPage.roff(date: ButtonManualPage.date(secondsSince1970: epoch))
    printOrFail(page)
case .desktopEntry:
    printOrFail(ButtonAutostart.desktopEntry)
case .autostart(let on):
    // No display needed: the entry is a file.
    exit(AutostartStore.set(on, path: ButtonAutostart.path(environment: ProcessEnvironment.variables())) ? 0 : 1)
case .run(let commandLineSettings):
    // The settings file first, then the command line's options over it.
    var settings = commandLineSettings
    var settingsProblem: String?
    let settingsPath = ButtonSettingsFile.path(environment: ProcessEnvironment.variables())
    if let settingsPath {
        do throws(SystemError) {
            if let bytes = try readSmallFile(settingsPath, limit: ButtonSettingsFile.maximumBytes) {
                do throws(ButtonUsageError) {
                    let fileArguments = try ButtonSettingsFile.arguments(from: bytes, path: settingsPath)
                    if case .run(let combined) = try ButtonCommandLine.parse(fileArguments + Array(CommandLine.arguments.dropFirst())) {
                        settings = combined
                    }
                } catch {
                    settingsProblem = "\(error.message); the settings file is not used"
                }
            } else {
                settingsProblem = "\(shown(settingsPath)) is not a regular file; it is not used"
            }
        } catch where error.kind == .notFound {
        } catch {
            settingsProblem = "\(shown(settingsPath)): \(error.errorMessage); it is not used"
        }
    }
    if let settingsProblem { say(settingsProblem) }
    guard gtk_init_check(nil, nil) != 0 else {
        say("cannot open a display: set WAYLAND_DISPLAY (or DISPLAY for X11) to the session's, or run it from the desktop")
        exit(1)
    }
    // Larger text asked for on the desktop (its font resolution): every
    // target grows with it.
    let textScale = ButtonSettings.textScale(dpi: gdk_screen_get_resolution(gdk_screen_get_default()))
    settings = settings.scaled(textScale: textScale)
    let positionPath = ButtonPositionFile.path(environment: ProcessEnvironment.variables())
    let position = PositionStore.load(path: positionPath) ?? .initial
    let socketPath = DaemonPaths.clientSocket(option: settings.socketPath, environment: ProcessEnvironment.variables())
    let buttonWindow = ButtonWindow(
        settings: settings, textScale: textScale, position: position, positionPath: positionPath, socketPath: socketPath)
    buttonWindow.start()
    if let settingsProblem { buttonWindow.note(settingsProblem) }
    gtk_main()
    withExtendedLifetime(buttonWindow) {}
    exit(0)
}
