import GestureModel
import GestureRender

/// Names and descriptions for what `merge`, `fingers` and `transform`
/// make: the input's name and description describe the input, not the
/// result (merging three one-finger double taps is not "double-tap — One
/// finger taps twice"). `--name` and `--description` still win, as
/// ``GestureOutput/write(_:values:context:)`` applies them afterwards.
enum ResultNaming {
    /// `gesture` named by ``suggestedName(for:)`` (`double-tap-3`), and
    /// described by its spoken summary and where it came from:
    /// `3 fingers, double tap, 0.27 seconds. Merged from 3 copies of double-tap.`
    static func named(_ gesture: Gesture, origin: String) -> Gesture {
        var named = gesture
        named.name = suggestedName(for: gesture)
        let summary = describe(gesture, style: .spoken)
        named.description = "\(summary.prefix(1).uppercased())\(summary.dropFirst()). \(origin)"
        return named
    }

    /// How an input is called in a description: its stored name, or the
    /// argument that named it when the name is empty; at most 80
    /// characters, so that six of them always fit a description.
    static func name(of gesture: Gesture, input: String) -> String {
        let name = gesture.name.isEmpty ? input : gesture.name
        return name.count > 80 ? name.prefix(79) + "…" : name
    }

    /// Where a merge came from: `Merged from a, b and c.`, `Merged from 3
    /// copies of double-tap.`, `Merged from the strokes of strokes.`; beyond
    /// five inputs the rest are counted, so the description stays short.
    static func mergeOrigin(_ names: [String]) -> String {
        guard let first = names.first else { return "Merged." }
        if names.count == 1 { return "Merged from the strokes of \(first)." }
        if names.allSatisfy({ $0 == first }) { return "Merged from \(names.count) copies of \(first)." }
        let limit = 5
        var items = Array(names.prefix(limit))
        if names.count > limit { items.append("\(names.count - limit) more") }
        let last = items.removeLast()
        return "Merged from \(items.joined(separator: ", ")) and \(last)."
    }

    /// A number as a person writes it: `2`, `0.5`, `-10`, `1.234`.
    static func number(_ value: Double) -> String { DecimalText.decimal(value, places: 3) }
}
