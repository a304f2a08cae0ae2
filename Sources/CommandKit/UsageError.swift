/// A mistake on the command line, found while parsing: reported as one
/// error line, the usage line of the command it concerns, and a pointer to
/// that command's help; exit status 2.
struct UsageError: Error, Sendable {
    /// The one-line message, e.g. `unknown option '--sped'; did you mean '--speed'?`.
    var message: String
    /// The command the mistake concerns (empty for the tool itself).
    var path: [Command]
}
