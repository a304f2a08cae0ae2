import GestureModel

/// Text from a file, an argument or a device, as a person may see it on a
/// terminal: control and invisible characters escaped by GestureModel's
/// ``DisplayText`` (the one rule every human-readable output follows).
/// JSON output never uses this: JSONText escapes by RFC 8259.
func shown(_ text: String) -> String { DisplayText.escaped(text) }
