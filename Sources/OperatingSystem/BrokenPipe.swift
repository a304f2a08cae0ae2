import Glibc

extension SignalMask {
    /// Ends the process as a write to a closed pipe would have with
    /// SIGPIPE's default action (status 141 in a shell): for the standard
    /// output of a command whose reader has gone (`gesturectl list | head -1`),
    /// now that the process ignores SIGPIPE.
    public static func terminateAsIfByBrokenPipe() -> Never { terminate(asIfBy: SIGPIPE) }
}
