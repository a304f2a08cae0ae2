import GestureModel

/// Number and time formats for messages.
enum Formatting {
    /// A number as people write it: `2`, `0.5`, `-1.25` (no trailing `.0`).
    static func number(_ value: Double) -> String { DecimalText.shortest(value) }

    /// A time span: whole milliseconds as `300 ms`, anything else in µs.
    static func time(_ value: Microseconds) -> String {
        value.rawValue % 1_000 == 0 ? "\(value.rawValue / 1_000) ms" : "\(value.rawValue) µs"
    }

    /// A time in seconds, e.g. `14400 s` or `0.25 s`.
    static func seconds(_ value: Microseconds) -> String { "\(number(value.seconds)) s" }

    /// `1 sample` or `3 samples`.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(value) \(value == 1 ? singular : plural)"
    }

    /// The warning for samples clipped to the surface's edge.
    static func clippedWarning(_ clipped: Int) -> String {
        "\(count(clipped, "sample", "samples")) fell outside the surface and \(clipped == 1 ? "was" : "were") clipped to its edge"
    }

    /// The strict-mode error for samples that would fall off the surface.
    static func clippedError(_ clipped: Int) -> EditError {
        EditError("\(count(clipped, "sample", "samples")) would fall outside the surface")
    }
}
