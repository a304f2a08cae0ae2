import GestureFormat
import GestureLibrary
import GestureModel

/// Why the menu's configuration cannot be used: the file, the field, and
/// what is wrong (`~/.config/gesturectl/menu.json: items[2].press: unknown button "volum-up"; …`).
public struct MenuConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The whole message, starting with the file.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The menu of actions' configuration file, `menu.json`: the top level's
/// items, in order (AssistiveTouch's "Customize Top Level Menu").
/// GestureFormat's ``GestureFormat/JSONValue`` reads it, as every JSON text
/// gesturectl reads; `gesturectl menu` and the daemon's menu action share it.
///
/// ```json
/// {"items": [
///   {"press": "home"},
///   {"press": "volume-up", "label": "Louder"},
///   {"play": "three-finger-swipe-up"},
///   {"menu": "buttons"},
///   {"menu": "gestures"},
///   {"menu": "fingertips"},
///   {"fingertips": 3, "label": "Three fingers"},
///   {"menu": "Media", "items": [{"press": "KEY_PLAYPAUSE"}, {"press": "mute"}]},
///   {"create": {}}
/// ]}
/// ```
///
/// Each item has exactly one action: `press` (a button name or a `KEY_*`
/// the virtual keyboard has, as `gesturectl press`), `play` (a saved
/// gesture's name), `menu` (`buttons`, `gestures` — shown as "Saved
/// gestures menu" —, `fingertips` — shown as "Gestures menu", as
/// AssistiveTouch calls it —, or the
/// title of a sub-menu of one's own with its `items`), `create` (`{}`),
/// `fingertips` (live fingertips: how many, 2 to 10); and
/// optionally a `label`. A missing file means the defaults
/// (``MenuConfiguration/defaults``); a file that is there is
/// used whole or refused whole, never partly.
public enum MenuConfigurationFile {
    /// The largest file accepted.
    public static let maximumSize = 256 * 1024
    /// The longest label accepted, in characters.
    public static let maximumLabel = 80

    /// The user's file: `$XDG_CONFIG_HOME/gesturectl/menu.json`, else
    /// `~/.config/gesturectl/menu.json`; `nil` without a home.
    public static func userPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/gesturectl/menu.json" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/gesturectl/menu.json" }
        return nil
    }

    /// The configuration in the file at `path`, or `nil` when there is no file.
    /// - Throws: ``MenuConfigurationError`` naming the file (and the field).
    public static func load(path: String) throws(MenuConfigurationError) -> MenuConfiguration? {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path: path, limit: maximumSize, regularOnly: true)
        } catch {
            if error.kind == .notFound { return nil }
            throw MenuConfigurationError("\(error)")
        }
        return try parse(bytes, path: path)
    }

    /// Goes back to the defaults: deletes the file at `path`; whether there was one.
    /// - Throws: ``MenuConfigurationError`` when it cannot be deleted.
    public static func reset(path: String) throws(MenuConfigurationError) -> Bool {
        do {
            try FileIO.remove(path)
            return true
        } catch {
            if error.kind == .notFound { return false }
            throw MenuConfigurationError("\(error)")
        }
    }

    /// Reads a configuration from the bytes of the file named `path`.
    /// - Throws: ``MenuConfigurationError`` naming the file and the field.
    public static func parse(_ bytes: [UInt8], path: String) throws(MenuConfigurationError) -> MenuConfiguration {
        let shownPath = DisplayText.escaped(path)
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            let (line, column) = position(of: error.offset, in: bytes)
            throw MenuConfigurationError("\(shownPath): not JSON: line \(line), column \(column): \(error.message)")
        }
        guard case .object(let members, _) = value else {
            throw MenuConfigurationError("\(shownPath): must be a JSON object such as {\"items\": [{\"press\": \"volume-up\"}]}")
        }
        var items: [MenuEntry]?
        for (key, member) in members {
            switch key {
            case "items": items = try entries(member, field: "items", depth: 1, path: shownPath)
            default:
                throw MenuConfigurationError("\(shownPath): unknown key \"\(DisplayText.escaped(key))\" (known: items)")
            }
        }
        guard let items else { throw MenuConfigurationError("\(shownPath): \"items\" is missing (the top level's items, in order)") }
        return MenuConfiguration(items: items)
    }

    private static func entries(_ value: JSONValue, field: String, depth: Int, path: String) throws(MenuConfigurationError) -> [MenuEntry] {
        guard case .array(let values) = value else {
            throw MenuConfigurationError("\(path): \(field): must be a list of items such as [{\"press\": \"volume-up\"}]")
        }
        guard !values.isEmpty else { throw MenuConfigurationError("\(path): \(field): must have at least one item") }
        guard values.count <= MenuConfiguration.maximumItems else {
            throw MenuConfigurationError(
                "\(path): \(field): has \(values.count) items; the most is \(MenuConfiguration.maximumItems) (use sub-menus)")
        }
        var entries: [MenuEntry] = []
        for (index, item) in values.enumerated() {
            entries.append(try entry(item, field: "\(field)[\(index)]", depth: depth, path: path))
        }
        return entries
    }

    private static func entry(_ value: JSONValue, field: String, depth: Int, path: String) throws(MenuConfigurationError) -> MenuEntry {
        func fail(_ message: String) -> MenuConfigurationError { MenuConfigurationError("\(path): \(field)\(message)") }
        guard case .object(let members, _) = value else {
            throw fail(": must be an object such as {\"press\": \"volume-up\"} or {\"menu\": \"gestures\"}")
        }
        let actionKeys = ["press", "play", "menu", "create", "fingertips"]
        let given = members.map(\.key).filter { actionKeys.contains($0) }
        guard given.count == 1, let actionKey = given.first else {
            throw fail(
                given.isEmpty
                    ? ": has no action; give one of \"press\", \"play\", \"menu\", \"create\", \"fingertips\""
                    : ": has \(given.map { "\"\($0)\"" }.joined(separator: " and ")); give only one action")
        }
        var label: String?
        var subItems: JSONValue?
        for (key, member) in members {
            switch key {
            case "label":
                guard case .string(let text) = member, !text.isEmpty, text.count <= maximumLabel else {
                    throw fail(".label: must be a text of 1 to \(maximumLabel) characters")
                }
                label = text
            case "items":
                subItems = member
            case _ where actionKeys.contains(key):
                break
            default:
                throw fail(": unknown key \"\(DisplayText.escaped(key))\" (known: press, play, menu, create, fingertips, label, items)")
            }
        }
        let member = members.first { $0.key == actionKey }!.value
        if subItems != nil && actionKey != "menu" { throw fail(".items: only a \"menu\" item has items") }
        switch actionKey {
        case "press":
            guard case .string(let name) = member else { throw fail(".press: must be a button name such as \"volume-up\"") }
            do throws(KeyboardKeyNameError) {
                return MenuEntry(.press(try KeyboardKeys.key(named: name)), label: label)
            } catch {
                throw fail(".press: \(DisplayText.escaped(error.description))")
            }
        case "play":
            guard case .string(let name) = member else { throw fail(".play: must be the name of a saved gesture") }
            if let problem = GestureName.problem(with: name) { throw fail(".play: \(DisplayText.escaped(problem))") }
            return MenuEntry(.play(name), label: label)
        case "create":
            guard case .object(let options, _) = member, options.isEmpty else { throw fail(".create: must be {}") }
            return MenuEntry(.create, label: label)
        case "fingertips":
            let range = MenuConfiguration.fingertipsRange
            guard case .number(let text) = member, let count = Int(text), range.contains(count) else {
                throw fail(".fingertips: must be how many fingertips, \(range.lowerBound) to \(range.upperBound)")
            }
            return MenuEntry(.fingertips(count), label: label)
        default:
            guard case .string(let name) = member, !name.isEmpty else {
                throw fail(".menu: must be \"buttons\", \"gestures\", \"fingertips\", or the title of a sub-menu of your own with its \"items\"")
            }
            switch (name, subItems) {
            case ("buttons", nil): return MenuEntry(.buttons, label: label)
            case ("gestures", nil): return MenuEntry(.gestures, label: label)
            case ("fingertips", nil): return MenuEntry(.fingertipsMenu, label: label)
            case ("buttons", _), ("gestures", _), ("fingertips", _):
                throw fail(".items: the \(name) menu lists its items itself; give items only to a menu of your own")
            case (_, nil):
                throw fail(".items: is missing: a menu of your own (\"\(DisplayText.escaped(name))\") lists its items; the built-in ones are \"buttons\", \"gestures\" and \"fingertips\"")
            case (_, let items?):
                guard name.count <= maximumLabel else { throw fail(".menu: a title has at most \(maximumLabel) characters") }
                guard depth < MenuConfiguration.maximumDepth else {
                    throw fail(": menus nest at most \(MenuConfiguration.maximumDepth) deep")
                }
                return MenuEntry(.menu(title: name, items: try entries(items, field: "\(field).items", depth: depth + 1, path: path)), label: label)
            }
        }
    }

    /// The 1-based line and column (in bytes) of a byte offset.
    private static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}
