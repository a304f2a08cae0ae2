import GestureFormat
import GestureLibrary
import GestureModel

/// Why an edit of the top level was refused: what the limit is and what to
/// do instead (`the top level has 8 items, the most; remove one first`).
public struct MenuEditError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message, for people.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// AssistiveTouch's "Customize Top Level Menu": the top level's items moved,
/// added and removed, 1 to 8 of them. The edits are pure; `menu.json` is
/// written with ``MenuConfigurationFile/save(_:path:)`` and reset with
/// ``MenuConfigurationFile/reset(path:)``.
extension MenuConfiguration {
    /// How many items a customised top level has: 1 to 8, as AssistiveTouch
    /// (a `menu.json` written by hand may have more, up to
    /// ``maximumItems``; such a top level can lose items, not gain them).
    public static let customTopLevelRange = 1...8

    /// Whether one more item may be added (fewer than 8).
    public var canAddTopLevelItem: Bool { items.count < Self.customTopLevelRange.upperBound }

    /// Whether an item may be removed (more than 1).
    public var canRemoveTopLevelItem: Bool { items.count > Self.customTopLevelRange.lowerBound }

    /// Moves the item at `index` to `destination` (both indices of the
    /// top level); the others keep their order.
    /// - Throws: ``MenuEditError`` when either index is not an item's.
    public mutating func moveTopLevelItem(at index: Int, to destination: Int) throws(MenuEditError) {
        guard items.indices.contains(index), items.indices.contains(destination) else {
            throw MenuEditError("there is no item \(index + 1) or \(destination + 1) in a top level of \(items.count)")
        }
        let entry = items.remove(at: index)
        items.insert(entry, at: destination)
    }

    /// Adds `entry` at the end of the top level.
    /// - Throws: ``MenuEditError`` when the top level has 8 items already.
    public mutating func addTopLevelItem(_ entry: MenuEntry) throws(MenuEditError) {
        guard canAddTopLevelItem else {
            throw MenuEditError(
                "the top level has \(items.count) items; it has at most \(Self.customTopLevelRange.upperBound): remove one first")
        }
        items.append(entry)
    }

    /// Removes the item at `index`.
    /// - Throws: ``MenuEditError`` when it is the last one (the top level
    ///   keeps at least 1) or `index` is not an item's.
    public mutating func removeTopLevelItem(at index: Int) throws(MenuEditError) {
        guard items.indices.contains(index) else {
            throw MenuEditError("there is no item \(index + 1) in a top level of \(items.count)")
        }
        guard canRemoveTopLevelItem else {
            throw MenuEditError("the top level keeps at least \(Self.customTopLevelRange.lowerBound) item: add another before removing this one")
        }
        items.remove(at: index)
    }

    /// What may be added to the top level, in the order offered: every
    /// named button, the built-in sub-menus, Create New Gesture, 2 to 5
    /// live fingertips, then each saved gesture of `savedGestures` (by
    /// name); an entry the top level has already is left out.
    public func topLevelAdditions(savedGestures: [String] = []) -> [MenuEntry] {
        let fixed: [MenuEntry] =
            MenuConfiguration.buttonItems
            + [MenuEntry(.buttons), MenuEntry(.gestures), MenuEntry(.create), MenuEntry(.fingertipsMenu)]
            + MenuConfiguration.fingertipsItems
        let gestures = savedGestures.filter { GestureName.problem(with: $0) == nil }.map { MenuEntry(.play($0)) }
        var seen = Set(items)
        return (fixed + gestures).filter { seen.insert($0).inserted }
    }
}

extension MenuConfigurationFile {
    /// Why `name` cannot be a saved gesture's name in a `play` item (as
    /// the library says: GestureLibrary's `GestureName`), or `nil`.
    public static func problem(withGestureName name: String) -> String? {
        GestureName.problem(with: name)
    }

    /// The file's text for `configuration`: what ``parse(_:path:)`` reads
    /// back as the same configuration, one top-level item a line.
    public static func encode(_ configuration: MenuConfiguration) -> [UInt8] {
        let lines = configuration.items.map { "  " + json($0).jsonText }
        return Array(("{\"items\": [\n" + lines.joined(separator: ",\n") + "\n]}\n").utf8)
    }

    /// Writes `configuration` to `path` atomically (GestureLibrary's
    /// ``GestureLibrary/FileIO/writeAtomically(_:to:overwrite:permissions:owner:)``:
    /// a temporary file, fsync, rename), making its folder first: a reader
    /// (`gesturectl menu`, the daemon, the on-screen button) sees the old
    /// file or the new one, never part of one.
    /// - Throws: ``MenuConfigurationError`` naming the file and why.
    public static func save(_ configuration: MenuConfiguration, path: String) throws(MenuConfigurationError) {
        do throws(FileSystemError) {
            try FileIO.createDirectories(FileIO.directoryName(path))
            try FileIO.writeAtomically(encode(configuration), to: path, permissions: 0o644)
        } catch {
            throw MenuConfigurationError(DisplayText.escaped("\(error)"))
        }
    }

    private static func json(_ entry: MenuEntry) -> JSONValue {
        var members: [(String, JSONValue)]
        switch entry.action {
        case .press(let key): members = [("press", .string(key.name))]
        case .play(let name): members = [("play", .string(name))]
        case .buttons: members = [("menu", .string("buttons"))]
        case .gestures: members = [("menu", .string("gestures"))]
        case .fingertipsMenu: members = [("menu", .string("fingertips"))]
        case .create: members = [("create", .object([]))]
        case .fingertips(let count): members = [("fingertips", .integer(count))]
        case .menu(let title, let items): members = [("menu", .string(title)), ("items", .array(items.map(json)))]
        }
        if let label = entry.label { members.append(("label", .string(label))) }
        return .object(members)
    }
}
