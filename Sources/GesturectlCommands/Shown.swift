import GestureModel

/// Text from a file, an argument or a device, as a person may see it on a
/// terminal: control and invisible characters escaped by GestureModel's
/// ``DisplayText`` (the one rule every human-readable output follows).
/// JSON output never uses this: JSONText escapes by RFC 8259.
func shown(_ text: String) -> String { DisplayText.escaped(text) }

/// Items for a message, each escaped as ``shown(_:)``, joined with ", ";
/// beyond `limit` the rest are counted ("… and 19,995 more"), so that a
/// command line of 20,000 inputs does not become one 100 KB line.
func listed(_ items: [String], limit: Int = 5, quoted: Bool = false) -> String {
    let wrap: (String) -> String = { quoted ? "\"" + shown($0) + "\"" : shown($0) }
    let head = items.prefix(limit).map(wrap).joined(separator: ", ")
    return items.count > limit ? head + " … and \(items.count - limit) more" : head
}
