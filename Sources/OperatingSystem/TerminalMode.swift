import Glibc

/// A terminal switched to character mode (no line buffering, no echo;
/// Ctrl-C still sends SIGINT), and back. ``restore()`` puts back exactly
/// the settings that were there; call it on every way out.
public final class TerminalMode: Sendable {
    /// The terminal.
    public let fileDescriptor: FileDescriptor
    private let saved: termios

    private init(fileDescriptor: FileDescriptor, saved: termios) {
        self.fileDescriptor = fileDescriptor
        self.saved = saved
    }

    /// Switches `fileDescriptor` (a terminal) to character mode.
    /// - Throws: ``SystemError`` from `tcgetattr`/`tcsetattr` (ENOTTY when it is no terminal).
    public static func characterMode(_ fileDescriptor: FileDescriptor) throws(SystemError) -> TerminalMode {
        var settings = termios()
        try Syscall.minusOne("tcgetattr") { tcgetattr(fileDescriptor.rawValue, &settings) }
        let saved = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        // VMIN 1, VTIME 0: a read returns as soon as one byte is there.
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        try Syscall.minusOne("tcsetattr") { tcsetattr(fileDescriptor.rawValue, TCSANOW, &settings) }
        return TerminalMode(fileDescriptor: fileDescriptor, saved: saved)
    }

    /// Puts back the settings from before ``characterMode(_:)``.
    public func restore() {
        var settings = saved
        _ = tcsetattr(fileDescriptor.rawValue, TCSANOW, &settings)
    }
}
