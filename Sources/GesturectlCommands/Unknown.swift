import CommandKit

/// What messages show in place of something a command could not learn:
/// each fallback once, with why the value may be missing.
enum Unknown {
    /// A virtual device's node in a note: `?`. The node is learnt from
    /// udev, which may not announce the device in time (the play goes on,
    /// with a warning).
    static func node(_ node: String?) -> String { node ?? "?" }

    /// A virtual device in the warning that udev did not announce it: its
    /// node when the kernel named it anyway, else `what` ("the device").
    static func device(_ node: String?, what: String = "the device") -> String { node ?? what }

    /// A field of a daemon's reply that an older or foreign daemon may
    /// leave out, in a note: `?` (the command goes on without it).
    static func replied(_ text: String?) -> String { text ?? "?" }
}

extension CommandContext {
    /// Whether the environment variable is set to something other than the
    /// empty string (`NO_COLOR=` counts as unset, as no-color.org says).
    func hasValue(_ variable: String) -> Bool {
        guard let value = environment[variable] else { return false }
        return !value.isEmpty
    }
}
