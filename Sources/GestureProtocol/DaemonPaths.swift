import OperatingSystem

/// Where the daemon's socket is, decided the same way by the daemon and its
/// clients (so that they never disagree about the path).
public enum DaemonPaths {
    /// The system service's socket: `/run/gesturectl/gesturectl.sock`.
    public static let systemSocket = "/run/gesturectl/gesturectl.sock"
    /// The system service's configuration file.
    public static let systemConfiguration = "/etc/gesturectl/daemon.json"
    /// The system service's library of gestures.
    public static let systemLibrary = "/var/lib/gesturectl/gestures"
    /// The system service's bindings changed over the socket (they
    /// override the configuration's; `bindings` with `"reset": true` deletes the file).
    public static let systemBindings = "/var/lib/gesturectl/bindings.json"

    /// A user instance's saved bindings: `$XDG_DATA_HOME/gesturectl/bindings.json`,
    /// else `~/.local/share/gesturectl/bindings.json` (beside the user's library);
    /// `nil` without a home.
    public static func userBindings(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/gesturectl/bindings.json" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/share/gesturectl/bindings.json" }
        return nil
    }

    /// The socket the daemon listens on: `--socket`, else
    /// `$GESTURECTL_SOCKET`, else the system socket when started as root or
    /// socket-activated, else `$XDG_RUNTIME_DIR/gesturectl.sock`.
    /// - Throws: ``DaemonError`` (`bad-argument`) when none applies (a user
    ///   without XDG_RUNTIME_DIR).
    public static func serverSocket(
        option: String?, environment: [String: String], isRoot: Bool, isSocketActivated: Bool
    ) throws(DaemonError) -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment["GESTURECTL_SOCKET"], !variable.isEmpty { return variable }
        if isRoot || isSocketActivated { return systemSocket }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/gesturectl.sock" }
        throw DaemonError(
            .badArgument,
            "no socket path: give --socket PATH or set GESTURECTL_SOCKET (XDG_RUNTIME_DIR is not set, and only root uses \(systemSocket))")
    }

    /// The socket a client connects to: `--socket`, else
    /// `$GESTURECTL_SOCKET`, else `$XDG_RUNTIME_DIR/gesturectl.sock` if it
    /// exists, else the system socket.
    public static func clientSocket(
        option: String?, environment: [String: String], exists: (String) -> Bool = Paths.exists
    ) -> String {
        if let option, !option.isEmpty { return option }
        if let variable = environment["GESTURECTL_SOCKET"], !variable.isEmpty { return variable }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, exists(runtime + "/gesturectl.sock") {
            return runtime + "/gesturectl.sock"
        }
        return systemSocket
    }
}
