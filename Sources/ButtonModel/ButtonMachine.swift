/// What happens to the button, as the view reports it. Positions are in
/// screen coordinates (``ScreenPoint``), times in microseconds of the
/// monotonic clock.
public enum ButtonEvent: Hashable, Sendable {
    /// A pointer button or a finger went down on the button.
    case pointerDown(ScreenPoint, at: Int64)
    /// The pressed pointer or finger moved.
    case pointerMove(ScreenPoint, at: Int64)
    /// The pointer button or finger was released.
    case pointerUp(ScreenPoint, at: Int64)
    /// The press was taken away (a touch cancelled, a grab broken): a drag
    /// still snaps to an edge; anything else is forgotten.
    case pointerCancel(at: Int64)
    /// The pointer came over the button (`true`) or left it.
    case hover(Bool, at: Int64)
    /// Return or Space on the focused button: a single tap, at once.
    case activate(at: Int64)
    /// The menu the button opened was closed.
    case menuClosed(at: Int64)
    /// The monitor's size is known or changed.
    case screenChanged(ScreenSize, at: Int64)
    /// The time the view was asked to wake at (``ButtonMachine/nextWake(after:)``) came.
    case tick(at: Int64)
    /// A gesture is being placed or played (`true`), or no longer: while
    /// it is, the button is its stop button (``ButtonOutput/stop``).
    case busy(Bool, at: Int64)
}

/// What the view should do.
public enum ButtonOutput: Hashable, Sendable {
    /// Show the button at this opacity (0…1).
    case opacity(Double)
    /// Follow the pointer: the button's top-left corner goes here.
    case move(origin: ScreenPoint)
    /// Rest on an edge: anchor the button there, its corner at `origin`.
    case place(EdgePosition, origin: ScreenPoint)
    /// Remember this position across restarts.
    case save(EdgePosition)
    /// Do `action`, which `gesture` on the button asked for.
    case perform(ButtonAction, ButtonGesture)
    /// Busy (placing or playing): a tap or Return stops what is under way,
    /// whatever the taps' actions, at once (no wait for a double tap, no
    /// long press), so the stop never depends on the settings.
    case stop
}

/// The floating button's state machine: drag and snap, tap, double tap and
/// long press, and the idle fade, without a display.
///
/// The view feeds it ``ButtonEvent``s and does what the returned
/// ``ButtonOutput``s say. After each call it asks ``nextWake(after:)`` and
/// sets one timer for that time (or none: `nil` means nothing will change
/// until the next event, so an idle, faded button costs no wake-ups).
public struct ButtonMachine: Sendable {
    /// The settings it was made with.
    public let settings: ButtonSettings
    /// The monitor's size.
    public private(set) var screen: ScreenSize
    /// Where the button rests (while dragged: where it rested before).
    public private(set) var position: EdgePosition
    /// The button's top-left corner now.
    public private(set) var origin: ScreenPoint
    /// The opacity last reported.
    public private(set) var opacity = 1.0
    /// Whether a menu the button opened is showing.
    public private(set) var menuIsOpen = false
    /// Whether a gesture is being placed or played (``ButtonEvent/busy(_:at:)``).
    public private(set) var isBusy = false

    private struct Press: Sendable {
        var start: ScreenPoint
        var startOrigin: ScreenPoint
        var time: Int64
        var dragging = false
        var longPressDone = false
        var isSecondTap = false
    }

    private var press: Press?
    /// The release time of a tap that may become a double tap.
    private var pendingTapRelease: Int64?
    private var hovered = false
    private var lastActivity: Int64

    /// A button resting at `position` on a screen of `screen`, fully
    /// visible at `now` (it fades after ``ButtonSettings/idleMicroseconds``).
    public init(settings: ButtonSettings, screen: ScreenSize, position: EdgePosition, now: Int64) {
        self.settings = settings
        self.screen = screen
        self.position = position
        self.origin = position.origin(size: settings.size, screen: screen, gap: settings.edgeGap)
        self.lastActivity = now
    }

    /// Whether the button is being dragged.
    public var isDragging: Bool { press?.dragging ?? false }

    /// Feeds one event; returns what the view should do, in order.
    public mutating func handle(_ event: ButtonEvent) -> [ButtonOutput] {
        var outputs: [ButtonOutput] = []
        switch event {
        case .pointerDown(let point, let time):
            var newPress = Press(start: point, startOrigin: origin, time: time)
            if let release = pendingTapRelease, time - release <= settings.doubleTapMicroseconds {
                newPress.isSecondTap = true
            } else if pendingTapRelease != nil {
                // Too late for a double tap: the first was a single tap.
                perform(.singleTap, into: &outputs)
            }
            pendingTapRelease = nil
            press = newPress
            touch(time, into: &outputs)
        case .pointerMove(let point, let time):
            guard var current = press else { break }
            if !current.dragging && !current.longPressDone && point.distance(to: current.start) > settings.dragSlop {
                current.dragging = true
            }
            if current.dragging {
                origin = clamped(
                    ScreenPoint(
                        x: current.startOrigin.x + point.x - current.start.x,
                        y: current.startOrigin.y + point.y - current.start.y))
                outputs.append(.move(origin: origin))
            }
            press = current
            touch(time, into: &outputs)
        case .pointerUp(_, let time):
            guard let current = press else { break }
            press = nil
            if current.dragging {
                snap(into: &outputs)
            } else if isBusy {
                outputs.append(.stop)
            } else if current.longPressDone {
                // Already acted while held.
            } else if time - current.time >= settings.longPressMicroseconds {
                perform(.longPress, into: &outputs)
            } else if current.isSecondTap {
                perform(.doubleTap, into: &outputs)
            } else if settings.doubleTapAction == .none {
                perform(.singleTap, into: &outputs)
            } else {
                pendingTapRelease = time
            }
            touch(time, into: &outputs)
        case .pointerCancel(let time):
            if let current = press, current.dragging { snap(into: &outputs) }
            press = nil
            touch(time, into: &outputs)
        case .hover(let inside, let time):
            hovered = inside
            touch(time, into: &outputs)
        case .activate(let time):
            pendingTapRelease = nil
            if isBusy { outputs.append(.stop) } else { perform(.singleTap, into: &outputs) }
            touch(time, into: &outputs)
        case .busy(let busy, let time):
            isBusy = busy
            pendingTapRelease = nil
            touch(time, into: &outputs)
        case .menuClosed(let time):
            menuIsOpen = false
            touch(time, into: &outputs)
        case .screenChanged(let size, let time):
            screen = size
            if let current = press, current.dragging {
                origin = clamped(origin)
                outputs.append(.move(origin: origin))
            } else {
                origin = position.origin(size: settings.size, screen: screen, gap: settings.edgeGap)
                outputs.append(.place(position, origin: origin))
            }
            _ = time
        case .tick(let time):
            if let release = pendingTapRelease, time - release > settings.doubleTapMicroseconds {
                pendingTapRelease = nil
                perform(.singleTap, into: &outputs)
                lastActivity = max(lastActivity, time)
            }
            if var current = press, !current.dragging, !current.longPressDone, !isBusy,
                settings.longPressAction != .none, time - current.time >= settings.longPressMicroseconds
            {
                current.longPressDone = true
                press = current
                perform(.longPress, into: &outputs)
            }
            report(opacity(at: time), into: &outputs)
        }
        return outputs
    }

    /// When the view should send the next ``ButtonEvent/tick(at:)``, if
    /// `now` is the time; `nil` when nothing changes until another event.
    public func nextWake(after now: Int64) -> Int64? {
        var wakes: [Int64] = []
        if let release = pendingTapRelease { wakes.append(release + settings.doubleTapMicroseconds + 1) }
        if let current = press, !current.dragging, !current.longPressDone, !isBusy, settings.longPressAction != .none {
            wakes.append(current.time + settings.longPressMicroseconds)
        }
        if !isActive && opacity > settings.idleOpacity {
            let fadeStart = lastActivity + settings.idleMicroseconds
            wakes.append(now < fadeStart ? fadeStart : min(now + settings.fadeStepMicroseconds, fadeStart + settings.fadeMicroseconds))
        }
        return wakes.min()
    }

    /// The opacity the button has at `time` if nothing happens before.
    public func opacity(at time: Int64) -> Double {
        if isActive { return 1 }
        let idle = min(1, max(0, settings.idleOpacity))
        let fadeStart = lastActivity + settings.idleMicroseconds
        if time < fadeStart { return 1 }
        if settings.fadeMicroseconds <= 0 || time >= fadeStart + settings.fadeMicroseconds { return idle }
        let progress = Double(time - fadeStart) / Double(settings.fadeMicroseconds)
        return 1 - (1 - idle) * progress
    }

    /// Pressed, hovered or showing its menu: never faded.
    private var isActive: Bool { press != nil || hovered || menuIsOpen }

    private mutating func touch(_ time: Int64, into outputs: inout [ButtonOutput]) {
        lastActivity = max(lastActivity, time)
        report(opacity(at: time), into: &outputs)
    }

    private mutating func report(_ value: Double, into outputs: inout [ButtonOutput]) {
        if value != opacity {
            opacity = value
            outputs.append(.opacity(value))
        }
    }

    private mutating func perform(_ gesture: ButtonGesture, into outputs: inout [ButtonOutput]) {
        let action = settings.action(for: gesture)
        guard action != .none else { return }
        if action == .menu { menuIsOpen = true }
        outputs.append(.perform(action, gesture))
    }

    private mutating func snap(into outputs: inout [ButtonOutput]) {
        position = EdgePosition.nearest(toOrigin: origin, size: settings.size, screen: screen)
        origin = position.origin(size: settings.size, screen: screen, gap: settings.edgeGap)
        outputs.append(.place(position, origin: origin))
        outputs.append(.save(position))
    }

    private func clamped(_ point: ScreenPoint) -> ScreenPoint {
        let maxX = Double(max(0, screen.width - settings.size))
        let maxY = Double(max(0, screen.height - settings.size))
        return ScreenPoint(x: min(maxX, max(0, point.x)), y: min(maxY, max(0, point.y)))
    }
}
