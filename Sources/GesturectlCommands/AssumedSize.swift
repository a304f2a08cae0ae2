import CommandKit
import GestureEditing
import GestureModel

/// The note an option measured in millimetres gives when the gesture's
/// surface size is unknown (FORMAT.md, "How size, resolution and axes
/// relate"): its millimetres are then on the assumed size, and the user is
/// told so instead of being given invented millimetres without a word.
enum AssumedSize {
    /// `note: NAME has no known size (…); for --spacing its surface is assumed to be 216 × 135 mm (…)`;
    /// nothing when the size is known or no such option is used.
    static func note(_ device: DeviceGeometry, of source: String, options: [String], context: CommandContext) {
        guard !device.isSizeKnown, !options.isEmpty else { return }
        let listed = options.map { "--" + $0 }.joined(separator: ", ")
        context.note(
            "\(source) has no known size (width_mm/height_mm 0 and no resolution); for \(listed) its surface is assumed to be \(surface(device)) (see docs/FORMAT.md)")
    }

    /// `216 × 135 mm`, the surface as the size rule gives it.
    static func surface(_ device: DeviceGeometry) -> String {
        "\(JSONText.number(rounded(device.surfaceWidthMM))) × \(JSONText.number(rounded(device.surfaceHeightMM))) mm"
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}

extension Placement.Coordinate {
    /// Whether the coordinate is given in millimetres (not in percent).
    var isMillimetres: Bool {
        if case .millimetres = self { return true }
        return false
    }
}
