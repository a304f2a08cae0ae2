import GestureFormat
import GestureModel

/// Why `button.json` was not used.
public struct ButtonPositionFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// The button's remembered position, `$XDG_STATE_HOME/gesturectl/button.json`:
///
///     {"version": 1, "edge": "right", "fraction": 0.5}
///
/// Parsing is strict and never traps: a damaged file is reported (and the
/// caller starts from ``EdgePosition/initial``), never half-used.
public enum ButtonPositionFile {
    /// The format version written and read.
    public static let version = 1
    /// The largest file read: a position is a few dozen bytes.
    public static let maximumBytes = 4096

    /// Where the file is: `$XDG_STATE_HOME/gesturectl/button.json`, or
    /// `$HOME/.local/state/gesturectl/button.json` when XDG_STATE_HOME is
    /// unset, empty or relative (as the XDG base directory specification
    /// says); `nil` when neither gives an absolute folder.
    public static func path(environment: [String: String]) -> String? {
        XDGFolder.state(environment: environment).map { $0 + "/gesturectl/button.json" }
    }

    /// The file's text for `position`, ending with a newline.
    public static func encode(_ position: EdgePosition) -> [UInt8] {
        let fraction = DecimalText.fixed(Int64((position.fraction * 10_000).rounded()), scale: 10_000)
        return Array(
            "{\"version\": \(version), \"edge\": \"\(position.edge.rawValue)\", \"fraction\": \(fraction)}\n".utf8)
    }

    /// The position in `bytes`, or an error that says what is wrong.
    public static func parse(_ bytes: [UInt8]) throws(ButtonPositionFileError) -> EdgePosition {
        if bytes.count > maximumBytes {
            throw ButtonPositionFileError(reason: "it has \(bytes.count) bytes; a position has at most \(maximumBytes)")
        }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONValue.parse(bytes)
        } catch {
            throw ButtonPositionFileError(reason: "it is not JSON (\(error))")
        }
        guard case .object(let members, _) = value else {
            throw ButtonPositionFileError(reason: "it is not a JSON object")
        }
        let known: Set<String> = ["version", "edge", "fraction"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw ButtonPositionFileError(
                reason: "unknown key \"\(DisplayText.escaped(unknown.key))\" (the keys are version, edge and fraction)")
        }
        guard case .number(let versionText)? = value["version"] else {
            throw ButtonPositionFileError(reason: "\"version\" is missing or not a number")
        }
        guard let fileVersion = Int(versionText), fileVersion == version else {
            throw ButtonPositionFileError(
                reason: "version \(DisplayText.escaped(versionText)) is not \(version), the version this gesturectl-button reads")
        }
        let edgeNames = ScreenEdge.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .string(let edgeText)? = value["edge"] else {
            throw ButtonPositionFileError(reason: "\"edge\" is missing or not a string (one of \(edgeNames))")
        }
        guard let edge = ScreenEdge(rawValue: edgeText) else {
            throw ButtonPositionFileError(
                reason: "\"edge\" is \"\(DisplayText.escaped(edgeText))\"; it is one of \(edgeNames)")
        }
        guard case .number(let fractionText)? = value["fraction"] else {
            throw ButtonPositionFileError(reason: "\"fraction\" is missing or not a number (0 to 1 along the edge)")
        }
        guard let fraction = Double(fractionText), fraction.isFinite, fraction >= 0, fraction <= 1 else {
            throw ButtonPositionFileError(
                reason: "\"fraction\" is \(DisplayText.escaped(fractionText)); it is a number from 0 to 1 along the edge")
        }
        return EdgePosition(edge: edge, fraction: fraction)
    }
}
