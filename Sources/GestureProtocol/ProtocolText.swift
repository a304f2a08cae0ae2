import GestureModel

/// How a name from a request appears in a reply or a log line: on one line,
/// escaped by the rule every human-readable output follows (GestureModel's
/// `DisplayText`), and cut short (a client may send a key a megabyte long;
/// a message needs only its start).
package enum ProtocolText {
    /// `text` on one line, with control and invisible characters escaped
    /// (`\n`, `\t`, `<U+001B>`, `<U+FEFF>`).
    package static func oneLine(_ text: String) -> String {
        DisplayText.escaped(text)
    }

    /// `text` on one line, cut to about `limit` characters, saying how many
    /// bytes it had when cut.
    package static func excerpt(_ text: String, limit: Int = 64) -> String {
        guard text.count > limit else { return oneLine(text) }
        return oneLine(String(text.prefix(limit))) + "…(\(text.utf8.count) bytes)"
    }
}
