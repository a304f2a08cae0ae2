/// The XDG base directories the button keeps its files in, as the XDG base
/// directory specification finds them: the variable when it holds an
/// absolute path, else its default under `$HOME`; `nil` when neither gives
/// an absolute folder (a relative or empty variable is ignored, as the
/// specification says).
public enum XDGFolder {
    /// `$XDG_CONFIG_HOME`, else `$HOME/.config`.
    public static func config(environment: [String: String]) -> String? {
        folder("XDG_CONFIG_HOME", default: ".config", environment: environment)
    }

    /// `$XDG_STATE_HOME`, else `$HOME/.local/state`.
    public static func state(environment: [String: String]) -> String? {
        folder("XDG_STATE_HOME", default: ".local/state", environment: environment)
    }

    private static func folder(_ variable: String, default relative: String, environment: [String: String]) -> String? {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        if let home = environment["HOME"], home.hasPrefix("/") { return (home == "/" ? "" : home) + "/" + relative }
        return nil
    }
}
