import GestureModel
import OperatingSystem

/// One line on standard error, prefixed with the program's name.
func say(_ text: String) {
    try? FileDescriptor.standardError.writeAll(Array("gesturectl-button: \(text)\n".utf8))
}

/// A path or argument as shown in a message: quoted, control characters escaped.
func shown(_ text: String) -> String { "'" + DisplayText.escaped(text) + "'" }
