import GestureMenu
import GestureModel

/// AssistiveTouch's "Customize Top Level Menu", in the button's own menu:
/// the top level's items with Move up, Move down and Remove each, Add an
/// item (1 to 8 items; the items that may be added are offered as buttons
/// of their own), and Reset, which asks first. Pure: the window shows
/// ``rows`` and ``footer``, hands each press to ``press(_:)`` and does the
/// ``Effect`` it returns (writing `menu.json` through GestureMenu, the same
/// file `gesturectl menu` and the daemon read).
public struct MenuCustomizer: Sendable {
    /// A control of the view, by what it does.
    public enum Control: Hashable, Sendable {
        /// Move the item at this index one place up.
        case moveUp(Int)
        /// Move the item at this index one place down.
        case moveDown(Int)
        /// Remove the item at this index.
        case remove(Int)
        /// Offer the items that may be added (``additions``).
        case add
        /// Add the offered item at this index of ``additions`` at the end.
        case addition(Int)
        /// Offer nothing after all: back to the items.
        case cancelAddition
        /// Ask whether to reset the menu to the default one.
        case reset
        /// The confirmation's non-destructive choice, and its default: keep the menu.
        case keepMenu
        /// The confirmation's destructive choice: back to the default menu.
        case confirmReset
        /// Close the customisation.
        case done
    }

    /// How prominent a control is (Apple's button roles).
    public enum Role: Hashable, Sendable {
        /// An ordinary control.
        case normal
        /// The default choice, taken by Return: never a destructive one.
        case primary
        /// Loses what was customised.
        case destructive
    }

    /// One control as the view shows it.
    public struct Button: Hashable, Sendable {
        /// What it does.
        public var control: Control
        /// The text on it.
        public var label: String
        /// Its accessible name: what a screen reader says (`Remove Home`).
        public var name: String
        /// Its tooltip and accessible description.
        public var description: String
        /// Whether it can be pressed now (e.g. no Move up for the first item).
        public var enabled: Bool
        /// Its role.
        public var role: Role
    }

    /// One item of the top level, with its controls.
    public struct Row: Hashable, Sendable {
        /// The item as the menu shows it.
        public var label: String
        /// Move up, Move down, Remove.
        public var buttons: [Button]
    }

    /// An item that may be added, as offered.
    public struct Addition: Hashable, Sendable {
        /// What the offer shows (and a screen reader says).
        public var label: String
        /// The entry it adds.
        public var entry: MenuEntry
    }

    /// What the view does after a press.
    public enum Effect: Hashable, Sendable {
        /// Nothing beyond showing the customizer again.
        case none
        /// Write this configuration to `menu.json` (atomically), then
        /// ``saved(_:)`` — or ``failed(_:)`` with why it could not.
        case write(MenuConfiguration)
        /// Delete `menu.json` (the default menu applies), then ``saved(_:)``
        /// with ``GestureMenu/MenuConfiguration/defaults`` — or ``failed(_:)``.
        case reset
        /// Close the customisation.
        case close
    }

    /// The window's title, and its accessible name.
    public static let title = "Customize Top Level Menu"

    /// The top level as it is in `menu.json` (the defaults without one).
    public private(set) var configuration: MenuConfiguration
    /// Why the file cannot be customised (it is damaged: only Reset is
    /// offered, so that it is never overwritten by an edit), or why the last
    /// write failed; `nil` when all is well.
    public private(set) var problem: String?
    /// Whether the Reset confirmation is showing.
    public private(set) var isConfirmingReset = false
    /// Whether the items that may be added are offered.
    public private(set) var isChoosingAddition = false
    /// The saved gestures' names (the daemon's list): offered as items to add.
    public var savedGestures: [String] = []
    /// Whether the file is damaged (edits are refused; Reset is offered).
    public private(set) var fileIsDamaged = false

    /// A customizer of `configuration`; `damaged`: why the file could not
    /// be read (then only Reset and Done are offered).
    public init(configuration: MenuConfiguration, damaged: String? = nil) {
        self.configuration = configuration
        self.problem = damaged
        self.fileIsDamaged = damaged != nil
    }

    /// The customizer for the user's `menu.json` (`path`; `nil`: no home, so
    /// nothing can be saved, said as the problem).
    public static func load(path: String?) -> MenuCustomizer {
        guard let path else {
            return MenuCustomizer(
                configuration: .defaults,
                damaged: "neither XDG_CONFIG_HOME nor HOME is an absolute folder, so menu.json has no place")
        }
        do throws(MenuConfigurationError) {
            return MenuCustomizer(configuration: try MenuConfigurationFile.load(path: path) ?? .defaults)
        } catch {
            return MenuCustomizer(configuration: .defaults, damaged: "\(error.message); Reset deletes it, so that the default menu applies")
        }
    }

    /// The line under the title: how many items, or what is wrong, or the
    /// confirmation's question.
    public var status: String {
        if isConfirmingReset {
            return "Reset the menu to the default one? Your changes to the top level are lost."
        }
        if let problem { return problem }
        if isChoosingAddition { return "Choose the item to add at the end of the menu" }
        let range = MenuConfiguration.customTopLevelRange
        return "\(configuration.items.count) items on the top level (\(range.lowerBound) to \(range.upperBound))"
    }

    /// The items and their controls (none while the confirmation or the
    /// items to add show, or while the file is damaged).
    public var rows: [Row] {
        guard !isConfirmingReset, !isChoosingAddition, !fileIsDamaged else { return [] }
        let items = configuration.items
        return items.indices.map { index in
            let label = DisplayText.escaped(items[index].shownLabel)
            return Row(
                label: label,
                buttons: [
                    Button(
                        control: .moveUp(index), label: "Up", name: "Move \(label) up",
                        description: "Moves \(label) one place up the menu", enabled: index > 0, role: .normal),
                    Button(
                        control: .moveDown(index), label: "Down", name: "Move \(label) down",
                        description: "Moves \(label) one place down the menu", enabled: index < items.count - 1, role: .normal),
                    Button(
                        control: .remove(index), label: "Remove", name: "Remove \(label)",
                        description: configuration.canRemoveTopLevelItem
                            ? "Takes \(label) off the menu" : "The menu keeps at least one item",
                        enabled: configuration.canRemoveTopLevelItem, role: .normal),
                ])
        }
    }

    /// While Add an item is offering them: a button for each item that may be added.
    public var additionButtons: [Button] {
        guard isChoosingAddition, !isConfirmingReset else { return [] }
        return additions.enumerated().map { index, addition in
            Button(
                control: .addition(index), label: addition.label, name: "Add \(addition.label)",
                description: "Adds \(addition.label) at the end of the menu", enabled: true, role: .normal)
        }
    }

    /// The controls under the items: Add an item, Reset, Done; during the
    /// confirmation, Keep my menu (the primary choice) and Reset the menu;
    /// while items to add are offered, Cancel.
    public var footer: [Button] {
        if isConfirmingReset {
            return [
                Button(
                    control: .keepMenu, label: "Keep my menu", name: "Keep my menu",
                    description: "Leaves the menu as it is", enabled: true, role: .primary),
                Button(
                    control: .confirmReset, label: "Reset the menu", name: "Reset the menu",
                    description: "Deletes menu.json: the default menu comes back", enabled: true, role: .destructive),
            ]
        }
        if isChoosingAddition {
            return [
                Button(
                    control: .cancelAddition, label: "Cancel", name: "Cancel adding an item",
                    description: "Back to the menu's items", enabled: true, role: .normal)
            ]
        }
        let full = !configuration.canAddTopLevelItem
        let most = MenuConfiguration.customTopLevelRange.upperBound
        return [
            Button(
                control: .add, label: "Add an item", name: "Add an item",
                description: full ? "The menu has \(most) items, the most: remove one first" : "Adds an item at the end of the menu",
                enabled: !full && !fileIsDamaged, role: .normal),
            Button(
                control: .reset, label: "Reset…", name: "Reset to the default menu",
                description: "Asks first, then restores the default menu", enabled: true, role: .normal),
            Button(control: .done, label: "Done", name: "Done", description: "Closes this", enabled: true, role: .primary),
        ]
    }

    /// The control that has the keyboard's focus when the view shows first.
    public var initialFocus: Control { isConfirmingReset ? .keepMenu : (rows.isEmpty ? .reset : .moveDown(0)) }

    /// What may be added (GestureMenu's
    /// ``GestureMenu/MenuConfiguration/topLevelAdditions(savedGestures:)``
    /// with ``savedGestures``), with labels.
    public var additions: [Addition] {
        configuration.topLevelAdditions(savedGestures: savedGestures).map { entry in
            if case .play(let name) = entry.action { return Addition(label: "Play \(DisplayText.escaped(name))", entry: entry) }
            return Addition(label: DisplayText.escaped(entry.shownLabel), entry: entry)
        }
    }

    /// A control was pressed: what the view does now, and the control that
    /// gets the focus afterwards (`nil`: leave it).
    public mutating func press(_ control: Control) -> (effect: Effect, focus: Control?) {
        if isConfirmingReset {
            switch control {
            case .keepMenu, .done:
                isConfirmingReset = false
                return (.none, .reset)
            case .confirmReset:
                isConfirmingReset = false
                return (.reset, .reset)
            default:
                return (.none, nil)
            }
        }
        if isChoosingAddition {
            switch control {
            case .addition(let index):
                let offered = additions
                guard offered.indices.contains(index) else { return (.none, nil) }
                isChoosingAddition = false
                return add(offered[index].entry)
            case .cancelAddition, .done:
                isChoosingAddition = false
                return (.none, .add)
            default:
                return (.none, nil)
            }
        }
        var edited = configuration
        let count = edited.items.count
        do throws(MenuEditError) {
            switch control {
            case .moveUp(let index):
                try edited.moveTopLevelItem(at: index, to: index - 1)
                return (.write(edited), index - 1 > 0 ? .moveUp(index - 1) : .moveDown(0))
            case .moveDown(let index):
                try edited.moveTopLevelItem(at: index, to: index + 1)
                return (.write(edited), index + 1 < count - 1 ? .moveDown(index + 1) : .moveUp(count - 1))
            case .remove(let index):
                guard !fileIsDamaged else { return (.none, nil) }
                try edited.removeTopLevelItem(at: index)
                return (.write(edited), edited.canRemoveTopLevelItem ? .remove(min(index, edited.items.count - 1)) : .add)
            case .add:
                guard !fileIsDamaged else { return (.none, nil) }
                guard edited.canAddTopLevelItem else { throw MenuEditError(footer[0].description) }
                isChoosingAddition = true
                return (.none, .addition(0))
            case .reset:
                isConfirmingReset = true
                return (.none, .keepMenu)
            case .done:
                return (.close, nil)
            case .keepMenu, .confirmReset, .addition, .cancelAddition:
                return (.none, nil)
            }
        } catch {
            problem = error.message
            return (.none, nil)
        }
    }

    /// Escape: closes the confirmation (keeping the menu) or the items to
    /// add, else the customisation.
    public mutating func escape() -> (effect: Effect, focus: Control?) {
        if isConfirmingReset { return press(.keepMenu) }
        if isChoosingAddition { return press(.cancelAddition) }
        return (.close, nil)
    }

    /// Adds `entry` at the end (what ``Control/addition(_:)`` does).
    public mutating func add(_ entry: MenuEntry) -> (effect: Effect, focus: Control?) {
        guard !fileIsDamaged else { return (.none, nil) }
        var edited = configuration
        do throws(MenuEditError) {
            try edited.addTopLevelItem(entry)
        } catch {
            problem = error.message
            return (.none, nil)
        }
        return (.write(edited), edited.canAddTopLevelItem ? .add : .remove(edited.items.count - 1))
    }

    /// The user's `menu.json` (GestureMenu's ``GestureMenu/MenuConfigurationFile/userPath(environment:)``).
    public static func path(environment: [String: String]) -> String? {
        MenuConfigurationFile.userPath(environment: environment)
    }

    /// Carries out a ``Effect/write(_:)`` or ``Effect/reset`` on the file at
    /// `path` through GestureMenu (an atomic write; a reset deletes the
    /// file), then ``saved(_:)`` or ``failed(_:)``. Returns what was done,
    /// for the log (`nil` for any other effect).
    public mutating func store(_ effect: Effect, path: String?) -> String? {
        let shownPath = path.map { "'" + DisplayText.escaped($0) + "'" } ?? "menu.json"
        do throws(MenuConfigurationError) {
            switch effect {
            case .write(let edited):
                guard let path else { throw MenuConfigurationError("menu.json has no place: neither XDG_CONFIG_HOME nor HOME is an absolute folder") }
                try MenuConfigurationFile.save(edited, path: path)
                saved(edited)
                return "wrote \(shownPath): \(edited.items.count) items"
            case .reset:
                guard let path else { throw MenuConfigurationError("menu.json has no place: neither XDG_CONFIG_HOME nor HOME is an absolute folder") }
                let removed = try MenuConfigurationFile.reset(path: path)
                saved(.defaults)
                return removed ? "deleted \(shownPath): the menu is the default one" : "no \(shownPath): the menu is the default one"
            case .none, .close:
                return nil
            }
        } catch {
            failed(error.message)
            return problem
        }
    }

    /// The write (or reset) the last ``Effect`` asked for is done: this is the menu now.
    public mutating func saved(_ configuration: MenuConfiguration) {
        self.configuration = configuration
        problem = nil
        fileIsDamaged = false
    }

    /// The write (or reset) failed: the menu is as it was; `message` says why.
    public mutating func failed(_ message: String) {
        problem = "menu.json was not changed: \(message)"
    }
}
