import GestureModel

/// Checks names given to gestures in the library.
///
/// A name becomes a file name, so it must not be able to leave the library
/// folder or confuse a terminal: no `/`, not `.` or `..` or a leading `.`,
/// no control characters, at most ``GestureLimits/maximumNameBytes`` bytes.
public enum GestureName {
    /// The suffix of gesture files in a library folder.
    public static let fileSuffix = ".gesture.json"

    /// Returns why `name` is not acceptable, or `nil` when it is.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "a gesture name cannot be empty" }
        if name.utf8.count > GestureLimits.maximumNameBytes {
            return "gesture name is \(name.utf8.count) bytes long; the most allowed is \(GestureLimits.maximumNameBytes)"
        }
        if name.contains("/") { return "gesture name \"\(name)\" contains \"/\"" }
        if name.hasPrefix(".") { return "gesture name \"\(name)\" starts with \".\"" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "gesture name contains a control character"
        }
        if name != name.trimmingSpaces { return "gesture name \"\(name)\" starts or ends with a space" }
        return nil
    }

    /// The library name a file name stands for, when it ends in
    /// ``fileSuffix``.
    public static func name(fromFileName fileName: String) -> String? {
        guard fileName.hasSuffix(fileSuffix), fileName.count > fileSuffix.count, !fileName.hasPrefix(".") else {
            return nil
        }
        return String(fileName.dropLast(fileSuffix.count))
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
