/// A hotplug event about an evdev node, from a ``UdevMonitor``.
public struct UdevEvent: Hashable, Sendable {
    /// What happened.
    public enum Action: Hashable, Sendable {
        /// The node appeared and udev finished processing it (permissions and
        /// `ID_INPUT_*` are set).
        case add
        /// The node went away.
        case remove
        /// The device changed.
        case change
        /// Any other udev action (e.g. `bind`), spelled as udev does.
        case other(String)

        /// Creates an action from udev's word (`add`, `remove`, …).
        public init(_ word: String) {
            switch word {
            case "add": self = .add
            case "remove": self = .remove
            case "change": self = .change
            default: self = .other(word)
            }
        }
    }

    /// What happened.
    public var action: Action
    /// The device as udev described it in the event (for `remove`, the
    /// sysfs attributes are gone, so name and ids may be `nil`).
    public var device: UdevInputDevice

    /// Creates an event.
    public init(action: Action, device: UdevInputDevice) {
        self.action = action
        self.device = device
    }
}
