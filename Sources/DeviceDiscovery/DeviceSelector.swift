import GestureModel

/// Why no single device matched what was asked for.
public struct DeviceSelectionError: KindedError, Equatable {
    /// No device matched, or several did.
    public enum Kind: Sendable, Equatable { case notFound, ambiguous }
    /// Which.
    public var kind: Kind
    /// A complete message, listing the candidates.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Picks the device a `--device` option means.
///
/// A specification may be an event node (`/dev/input/event5`), a stable
/// link (`/dev/input/by-id/usb-…-event-if00`, `/dev/input/by-path/…`), a
/// vendor:product pair in hex (`04f3:2a1c`), or a name (exact, else a
/// unique case-insensitive part of one). Links and names survive
/// re-plugging, so scripts and configurations should prefer them.
public enum DeviceSelector {
    /// The device `specification` names among `devices`; without a
    /// specification, the one device that records strokes (touchscreen,
    /// touchpad, tablet or mouse) if there is exactly one.
    /// - Parameter resolveLink: maps a path to its target (realpath) so a
    ///   link given by hand still matches; injected for tests.
    public static func select(
        _ specification: String?, among devices: [DeviceInfo], resolveLink: (String) -> String? = { _ in nil }
    ) throws(DeviceSelectionError) -> DeviceInfo {
        guard let specification, !specification.isEmpty else {
            let candidates = devices.filter { $0.kind.isGestureKind }
            if candidates.count == 1 { return candidates[0] }
            if candidates.isEmpty {
                throw DeviceSelectionError(
                    kind: .notFound,
                    message: "no touchscreen, touchpad, tablet or mouse found"
                        + (devices.isEmpty ? " (no input devices are visible: are you in the 'input' group?)" : "")
                )
            }
            throw DeviceSelectionError(
                kind: .ambiguous,
                message: "\(candidates.count) devices could be meant; choose one with --device:\n" + list(candidates))
        }
        if specification.hasPrefix("/") {
            let target = resolveLink(specification)
            if let device = devices.first(where: {
                $0.node == specification || $0.links.contains(specification) || (target != nil && $0.node == target)
            }) {
                return device
            }
            throw notFound(specification, devices)
        }
        if isVendorProduct(specification) {
            let matches = devices.filter { $0.vendorProduct == specification.lowercased() }
            return try single(matches, specification, devices)
        }
        let exact = devices.filter { $0.name == specification }
        if !exact.isEmpty { return try single(exact, specification, devices) }
        let wanted = Array(specification.lowercased().utf8)
        let partial = devices.filter { Array($0.name.lowercased().utf8).containsSubsequence(wanted) }
        return try single(partial, specification, devices)
    }

    private static func isVendorProduct(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isHexDigit) }
    }

    private static func single(
        _ matches: [DeviceInfo], _ specification: String, _ devices: [DeviceInfo]
    ) throws(DeviceSelectionError) -> DeviceInfo {
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw notFound(specification, devices) }
        // Several nodes of one physical device (e.g. a touchscreen's pen and
        // finger nodes) share a name: prefer the one that records strokes.
        let recordable = matches.filter { $0.kind.isGestureKind }
        if recordable.count == 1 { return recordable[0] }
        throw DeviceSelectionError(
            kind: .ambiguous,
            message: "\"\(specification)\" matches \(matches.count) devices; use a node or a /dev/input/by-id link:\n"
                + list(matches))
    }

    private static func notFound(_ specification: String, _ devices: [DeviceInfo]) -> DeviceSelectionError {
        DeviceSelectionError(
            kind: .notFound,
            message: "no input device matches \"\(specification)\""
                + (devices.isEmpty ? " (no input devices are visible)" : "; these exist:\n" + list(devices)))
    }

    /// One indented line per device: node, kind, name.
    static func list(_ devices: [DeviceInfo]) -> String {
        devices.map { "  \($0.node)  \($0.kind.listingName)  \($0.name)" }.joined(separator: "\n")
    }
}

extension Array where Element == UInt8 {
    /// Whether `part` occurs in these bytes as a run (a name's UTF-8 holding
    /// another's). Written here because the package does not import the
    /// regex module, which is where String's contains(String) lives.
    func containsSubsequence(_ part: [UInt8]) -> Bool {
        guard !part.isEmpty else { return true }
        guard part.count <= count else { return false }
        return (0...(count - part.count)).contains { start in self[start..<(start + part.count)].elementsEqual(part) }
    }
}
