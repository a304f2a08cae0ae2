import GestureModel

/// Finds where a value starts in a checked JSON text, by a path of keys and
/// array indices, so that a validation error can name the line of the
/// offending sample without the reader recording every sample's position.
///
/// It runs only after a validation failure, so its extra pass costs nothing
/// when a file is valid.
enum ValueLocator {
    /// One step of a path.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// The path of the value a validation error is about.
    static func path(of error: GestureValidationError) -> [Step] {
        let stroke = error.strokeIndex ?? 0
        switch error.field {
        case .name: return [.key("name")]
        case .description: return [.key("description")]
        case .deviceKind: return [.key("device"), .key("kind")]
        case .deviceX: return [.key("device"), .key("x")]
        case .deviceY: return [.key("device"), .key("y")]
        case .devicePressure: return [.key("device"), .key("pressure")]
        case .deviceSize: return [.key("device"), .key("size")]
        case .deviceWidth: return [.key("device"), .key("width_mm")]
        case .deviceHeight: return [.key("device"), .key("height_mm")]
        case .deviceSlots: return [.key("device"), .key("slots")]
        case .metadataDroppedEvents: return [.key("metadata"), .key("dropped_events")]
        case .strokes: return [.key("strokes")]
        case .stroke: return [.key("strokes"), .index(stroke)]
        case .strokeButton: return [.key("strokes"), .index(stroke), .key("button")]
        case .sample: return [.key("strokes"), .index(stroke), .key("samples"), .index(error.sampleIndex ?? 0)]
        }
    }

    /// The offset where the value at `path` starts, or where the deepest
    /// part of the path that exists starts (a missing button points at its
    /// stroke).
    static func offset(of path: [Step], in scanner: JSONScanner) -> Int {
        var scanner = scanner
        scanner.position = 0
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        var found = scanner.position
        for step in path {
            // Harmless: only where the error already found points; a part that cannot be entered points at its container.
            guard let next = try? enter(step, scanner: &scanner) else { break }
            found = next
        }
        return found
    }

    /// Moves from the start of a container to the start of its member at
    /// `step`, returning that offset, or nil when it is not there.
    private static func enter(_ step: Step, scanner: inout JSONScanner) throws(ScanError) -> Int? {
        var first = true
        switch step {
        case .key(let wanted):
            guard scanner.current == UInt8(ascii: "{") else { return nil }
            scanner.position += 1
            while let (key, _) = try scanner.nextKey(first: &first) {
                if key == wanted { return scanner.position }
                try scanner.skipValue(depth: 0)
            }
        case .index(let wanted):
            guard scanner.current == UInt8(ascii: "[") else { return nil }
            scanner.position += 1
            var index = 0
            while try scanner.nextElement(first: &first) {
                if index == wanted { return scanner.position }
                try scanner.skipValue(depth: 0)
                index += 1
            }
        }
        return nil
    }
}
