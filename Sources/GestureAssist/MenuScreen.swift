/// One line for people: what is shown and what is spoken. Every state
/// change of a flow is one such line that makes sense on its own, so it
/// can be followed in a plain transcript, by a screen reader, or from the
/// daemon's events.
public struct Announcement: Hashable, Sendable, CustomStringConvertible {
    /// The line as shown (may use ` · ` and units such as `mm`).
    public var text: String
    /// The same in words, with pauses a speech synthesiser honours
    /// (commas, full stops; "millimetres", "seconds").
    public var spoken: String

    /// Creates a line; `spoken` defaults to `text`.
    public init(_ text: String, spoken: String? = nil) {
        self.text = text
        self.spoken = spoken ?? text
    }

    public var description: String { text }
}

/// One choice in a menu.
public struct MenuItem: Hashable, Sendable {
    /// What the flow knows it by (stable; not shown).
    public var id: String
    /// What people see and hear.
    public var label: String
    /// A choice that throws something away or acts outside gesturectl:
    /// never the default, and confirmed before it acts.
    public var isDestructive: Bool

    /// Creates an item.
    public init(id: String, label: String, isDestructive: Bool = false) {
        self.id = id
        self.label = label
        self.isDestructive = isDestructive
    }
}

/// A menu as a flow presents it: a title, the items, which one Return
/// picks, and whether going back means anything here.
public struct MenuScreen: Hashable, Sendable {
    /// What the menu is about ("Recorded 2 strokes. What next?").
    public var title: Announcement
    /// The items, in order.
    public var items: [MenuItem]
    /// The item highlighted first, which Return picks: never a destructive one.
    public var defaultIndex: Int

    /// Creates a menu; the default is the first non-destructive item at or
    /// after `defaultIndex`.
    public init(title: Announcement, items: [MenuItem], defaultIndex: Int = 0) {
        self.title = title
        self.items = items
        let start = min(max(0, defaultIndex), max(0, items.count - 1))
        let candidates = Array(items.indices[start...]) + Array(items.indices[..<start])
        self.defaultIndex = candidates.first { !items[$0].isDestructive } ?? start
    }

    /// The line for a highlighted item: `Save (4 of 6)`; destructive items
    /// say so in words, never only by colour.
    public func highlightLine(_ index: Int) -> Announcement {
        guard items.indices.contains(index) else { return Announcement("") }
        let item = items[index]
        let position = "\(index + 1) of \(items.count)"
        let warning = item.isDestructive ? ", cannot be undone" : ""
        return Announcement("\(item.label) (\(position)\(warning))", spoken: "\(item.label)\(warning). \(position).")
    }

    /// The whole menu on one line: `Recorded 2 strokes. What next? [Review] · Add a stroke · …`.
    public func summaryLine(highlighted: Int?) -> Announcement {
        let shown = items.enumerated().map { index, item in index == highlighted ? "[\(item.label)]" : item.label }
        return Announcement(
            title.text + " " + shown.joined(separator: " · "),
            spoken: title.spoken + " " + items.map(\.label).joined(separator: ", ") + ".")
    }
}
