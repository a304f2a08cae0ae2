import GestureFormat
import GestureModel

/// The button's settings kept for every start (the autostart entry runs
/// `gesturectl-button` with no options), `$XDG_CONFIG_HOME/gesturectl/button-settings.json`:
///
///     {"size": 96, "idle-opacity": 0.7, "idle-seconds": 5,
///      "double-tap": "press:screenshot", "long-press": "play:three-finger-swipe-up",
///      "double-tap-timeout": 0.4, "long-press-duration": 1}
///
/// Each member is the long option of the same name with its value, read by
/// the very parser of the command line (``ButtonCommandLine``), so the file
/// accepts exactly what the options accept; options given on the command
/// line win over the file. A file with a mistake is refused whole, naming
/// the file and the member, never used in part.
public enum ButtonSettingsFile {
    /// The largest file read.
    public static let maximumBytes = 16_384

    /// The members a file may have: the options that are settings.
    public static let keys: [String] = [
        "size", "idle-opacity", "idle-seconds", "double-tap-timeout", "long-press-duration", "single-tap", "double-tap",
        "long-press", "socket", "device",
    ]

    /// `$XDG_CONFIG_HOME/gesturectl/button-settings.json`, or
    /// `$HOME/.config/gesturectl/button-settings.json` when XDG_CONFIG_HOME is
    /// unset, empty or relative; `nil` when neither gives an absolute folder.
    public static func path(environment: [String: String]) -> String? {
        XDGFolder.config(environment: environment).map { $0 + "/gesturectl/button-settings.json" }
    }

    /// The file's settings as command-line arguments (`--size 96 …`), each
    /// checked by the command line's parser; `path` names the file in errors.
    /// - Throws: ``ButtonUsageError`` naming the file and the member.
    public static func arguments(from bytes: [UInt8], path: String) throws(ButtonUsageError) -> [String] {
        let shownPath = DisplayText.escaped(path)
        if bytes.count > maximumBytes {
            throw ButtonUsageError("\(shownPath): larger than \(maximumBytes) bytes; a settings file is a few lines")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw ButtonUsageError("\(shownPath): not JSON: \(error)")
        }
        guard case .object(let members, _) = value else {
            throw ButtonUsageError("\(shownPath): must be an object such as {\"size\": 96, \"double-tap\": \"press:screenshot\"}")
        }
        var arguments: [String] = []
        for (key, member) in members {
            let shownKey = DisplayText.escaped(key)
            guard keys.contains(key) else {
                throw ButtonUsageError("\(shownPath): unknown setting \"\(shownKey)\" (known: \(keys.joined(separator: ", ")))")
            }
            let text: String
            switch member {
            case .string(let string): text = string
            case .number(let number): text = number
            default: throw ButtonUsageError("\(shownPath): \"\(shownKey)\" must be a number or a string")
            }
            let pair = ["--\(key)", text]
            do throws(ButtonUsageError) {
                _ = try ButtonCommandLine.parse(pair)
            } catch {
                throw ButtonUsageError("\(shownPath): \"\(shownKey)\": \(error.message)")
            }
            arguments += pair
        }
        return arguments
    }
}
