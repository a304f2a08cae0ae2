import ButtonModel
import CGtk
import OperatingSystem

/// How the button stays above other windows, decided once at start.
enum WindowMode: String {
    /// wlr-layer-shell: an overlay surface, moved by its margins.
    case layerShell = "layer-shell overlay"
    /// X11: a keep-above window, moved with gtk_window_move.
    case x11KeepAbove = "X11 keep-above"
    /// A Wayland compositor without layer shell: an ordinary window.
    case ordinary = "ordinary window"
}

/// A GObject pointer as another GObject type (GTK's C casts).
@inline(__always)
func cast<T>(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<T> {
    pointer!.assumingMemoryBound(to: T.self)
}

/// `g_signal_connect_data` (the `g_signal_connect` macro does not import).
func connect(
    _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: GCallback, _ data: UnsafeMutableRawPointer?,
    after: Bool = false
) {
    _ = g_signal_connect_data(instance, signal, handler, data, nil, after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0))
}

/// The floating button's window: GTK 3 around a ``ButtonMachine``. Every
/// call runs on the main thread, in GTK's main loop.
final class ButtonWindow {
    let settings: ButtonSettings
    /// The desktop's text scale (1 at the usual size): targets grow with it.
    let textScale: Double
    let positionPath: String?
    private(set) var machine: ButtonMachine
    let mode: WindowMode
    let window: UnsafeMutablePointer<GtkWidget>
    let button: UnsafeMutablePointer<GtkWidget>
    var menu: UnsafeMutablePointer<GtkWidget>?
    var monitorOrigin = (x: Int32(0), y: Int32(0))
    /// Every monitor, in GDK's order, and which one the button is on.
    var monitors: [MonitorFrame] = []
    var buttonMonitor = 0
    /// The daemon, reached through GestureProtocol.
    let link: DaemonLink
    /// Why the daemon could not be reached the last time it was asked
    /// (`nil`: it answered, or has not been asked yet).
    var daemonMissing: String?
    /// A saved gesture's way from the menu to the screen.
    var flow = PlayFlow()
    /// What the menu's items do, by the index each item carries.
    var menuActions: [ButtonMenuItem.Action] = []
    /// The Saved gestures sub-menu of the open menu, filled when the daemon answers.
    var savedGesturesMenu: UnsafeMutablePointer<GtkWidget>?
    /// The items at the top of the menu that say the daemon is missing.
    var missingItems: [UnsafeMutablePointer<GtkWidget>] = []
    /// The full-screen surfaces that take the click placing a gesture, one per monitor.
    var placingWindows: [UnsafeMutablePointer<GtkWidget>] = []
    /// Whether a press on a placing surface is held (its release places).
    var placingPressed = false
    /// The message beside the button, and the timer that hides it.
    var noteWindow: UnsafeMutablePointer<GtkWidget>?
    var noteLabel: UnsafeMutablePointer<GtkWidget>?
    var noteTimer: guint = 0
    /// "Customize Top Level Menu": its model while open, its panel (made
    /// once, hidden when closed), and what each of its controls does (by
    /// the index each carries).
    var customizer: MenuCustomizer?
    var customizeWindow: UnsafeMutablePointer<GtkWidget>?
    var customizeBox: UnsafeMutablePointer<GtkWidget>?
    var customizeControls: [MenuCustomizer.Control] = []
    var customizeWidgets: [MenuCustomizer.Control: UnsafeMutablePointer<GtkWidget>] = [:]
    /// The saved gestures' names the daemon last listed (offered as items to add).
    var savedGestureNames: [String] = []
    /// The busy ring's animation timer (only while a play is under way).
    var spinTimer: guint = 0
    /// While placing: the gesture's fingers drawn at the pointer, where the
    /// pointer is (a monitor and a point on it), and the saved gestures'
    /// summaries the daemon listed (the preview's label).
    var placingPreview: PlacingPreview?
    var placingPointer: (monitor: Int, point: ScreenPoint)?
    var gestureSummaries: [String: String] = [:]
    /// One switch scanning the menu (SwitchScanning.swift): the scan, the
    /// menu levels open (the top level first), its timer (only while it
    /// scans), and the daemon's `screen-menu` events.
    var scan = MenuScan()
    var scanShells: [UnsafeMutablePointer<GtkWidget>] = []
    var scanTimer: guint = 0
    var switchWatched = false
    var switchConnected = false
    var switchRetries = 0
    /// Create New Gesture: its flow and, while open, its canvas (CreateCanvas.swift).
    var canvas = CanvasFlow()
    var canvasView: CanvasView?
    /// Live fingertips (Fingertips.swift): their flow, the handle that
    /// cancels them, and the daemon's line saying how they are moved.
    var fingertips = FingertipsFlow()
    var fingertipsHandle: FingertipsHandle?
    var fingertipsLine: String?
    var fingertipsSource: (name: String, kind: String)?
    /// Whether the button shows a busy ring and stops something when tapped:
    /// a play, or live fingertips.
    var isBusy: Bool { flow.isBusy || fingertips.isActive }
    /// Where the compositor has the surface: the origin last asked for,
    /// once a frame has carried it (a layer surface's margins take effect
    /// with its next commit). Pointer positions are this plus the
    /// surface-relative position: measured from where the button was asked
    /// to be instead, a fast drag would run ahead of the pointer.
    private var committedOrigin = ScreenPoint(x: 0, y: 0)
    private var requestedOrigin = ScreenPoint(x: 0, y: 0)
    private var watchingFrames = false
    /// Where the surface was, and where on it, when the press began.
    private var pressOrigin = ScreenPoint(x: 0, y: 0)
    private var pressLocal = (0.0, 0.0)
    /// What a compositor's surface-relative positions are measured from while
    /// a button is held on a surface that moves: sway keeps measuring from
    /// where the surface was at the press, others from where it is now.
    /// Learnt on the first drag (see ``screenPoint(_:local:)``).
    private enum PressReference { case unknown, pressTime, current }
    private var pressReference = PressReference.unknown
    private var timerSource: guint = 0
    private var announcedReady = false
    /// The GDK event being handled, for the menu's popup (its serial grabs).
    private var currentEvent: UnsafeMutablePointer<GdkEvent>?

    init(settings: ButtonSettings, textScale: Double = 1, position: EdgePosition, positionPath: String?, socketPath: String) {
        self.settings = settings
        self.textScale = textScale
        self.positionPath = positionPath
        self.link = DaemonLink(path: socketPath)
        let display = gdk_display_get_default()
        var screen = ScreenSize(width: 1280, height: 720)
        var monitor = gdk_display_get_primary_monitor(display)
        if monitor == nil, gdk_display_get_n_monitors(display) > 0 { monitor = gdk_display_get_monitor(display, 0) }
        if let monitor {
            var geometry = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &geometry)
            screen = ScreenSize(width: Int(geometry.width), height: Int(geometry.height))
            monitorOrigin = (geometry.x, geometry.y)
        }
        for index in 0..<max(0, gdk_display_get_n_monitors(display)) {
            guard let each = gdk_display_get_monitor(display, index) else { continue }
            var geometry = GdkRectangle()
            gdk_monitor_get_geometry(each, &geometry)
            if each == monitor { buttonMonitor = monitors.count }
            monitors.append(
                MonitorFrame(x: Double(geometry.x), y: Double(geometry.y), width: Double(geometry.width), height: Double(geometry.height)))
        }
        let typeName = display.map { String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>($0))) } ?? ""
        if gtk_layer_is_supported() != 0 {
            mode = .layerShell
        } else if typeName.hasPrefix("GdkX11") {
            mode = .x11KeepAbove
        } else {
            mode = .ordinary
        }
        machine = ButtonMachine(settings: settings, screen: screen, position: position, now: monotonicNow())

        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        button = gtk_button_new()
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(window)
        gtk_window_set_title(gtkWindow, "gesturectl button")
        gtk_window_set_decorated(gtkWindow, 0)
        gtk_window_set_resizable(gtkWindow, 0)
        gtk_window_set_skip_taskbar_hint(gtkWindow, 1)
        gtk_window_set_skip_pager_hint(gtkWindow, 1)
        gtk_widget_set_app_paintable(window, 1)
        if let visual = gdk_screen_get_rgba_visual(gtk_widget_get_screen(window)) {
            gtk_widget_set_visual(window, visual)
        }
        gtk_style_context_add_class(gtk_widget_get_style_context(window), "gesturectl-button")
        gtk_style_context_add_class(gtk_widget_get_style_context(button), "gesturectl-button")
        let size = Int32(settings.size)
        gtk_widget_set_size_request(button, size, size)
        gtk_container_add(cast(window), button)

        // A screen reader's name for an icon-only button (Material: set the
        // accessibility label when there is no title).
        if let accessible = gtk_widget_get_accessible(button) {
            atk_object_set_name(accessible, "gesturectl menu")
            atk_object_set_description(accessible, "Opens the gesturectl menu: saved gestures and buttons")
        }
        gtk_widget_set_tooltip_text(button, "gesturectl menu")
        gtk_widget_add_events(
            button,
            gint(GDK_POINTER_MOTION_MASK.rawValue | GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
                | GDK_ENTER_NOTIFY_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue | GDK_TOUCH_MASK.rawValue))

        switch mode {
        case .layerShell:
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_OVERLAY)
            gtk_layer_set_namespace(gtkWindow, "gesturectl-button")
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_ON_DEMAND)
            if let monitor { gtk_layer_set_monitor(gtkWindow, monitor) }
        case .x11KeepAbove:
            gtk_window_set_keep_above(gtkWindow, 1)
            gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_UTILITY)
            gtk_window_stick(gtkWindow)
        case .ordinary:
            say(
                "this compositor offers no layer shell, so the button cannot stay above other windows here; "
                    + "it runs as an ordinary small window (sway, KDE Plasma, Phosh, labwc, Hyprland and X11 keep it on top)")
        }
        installStyle()
    }

    /// Connects the signals, shows the window, places it.
    func start() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        connect(window, "destroy", unsafeBitCast(onDestroy, to: GCallback.self), me)
        connect(window, "map-event", unsafeBitCast(onMap, to: GCallback.self), me)
        connect(window, "size-allocate", unsafeBitCast(onSizeAllocate, to: GCallback.self), me, after: true)
        connect(window, "draw", unsafeBitCast(onClearWindow, to: GCallback.self), me)
        connect(button, "draw", unsafeBitCast(onDraw, to: GCallback.self), me)
        connect(button, "button-press-event", unsafeBitCast(onButton, to: GCallback.self), me)
        connect(button, "button-release-event", unsafeBitCast(onButton, to: GCallback.self), me)
        connect(button, "motion-notify-event", unsafeBitCast(onMotion, to: GCallback.self), me)
        connect(button, "enter-notify-event", unsafeBitCast(onCrossing, to: GCallback.self), me)
        connect(button, "leave-notify-event", unsafeBitCast(onCrossing, to: GCallback.self), me)
        connect(button, "touch-event", unsafeBitCast(onTouch, to: GCallback.self), me)
        connect(button, "clicked", unsafeBitCast(onClicked, to: GCallback.self), me)
        apply([.place(machine.position, origin: machine.origin)])
        gtk_widget_show_all(window)
        schedule()
        checkDaemon()
        watchSwitch()
    }

    // MARK: events from GTK

    func mapped() {
        updateInputShape()
        if !watchingFrames, let gdkWindow = gtk_widget_get_window(window), let clock = gdk_window_get_frame_clock(gdkWindow) {
            watchingFrames = true
            connect(UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(onAfterPaint, to: GCallback.self),
                Unmanaged.passUnretained(self).toOpaque())
        }
        committedOrigin = requestedOrigin
        guard !announcedReady else { return }
        announcedReady = true
        say(
            "ready: \(mode.rawValue), \(machine.position), \(settings.size) px at \(machine.origin) "
                + "on a \(machine.screen) screen")
    }

    func pointer(_ kind: GdkEventType, local: (Double, Double), root: (Double, Double)) {
        let point: ScreenPoint
        if mode == .x11KeepAbove {
            point = ScreenPoint(x: root.0 - Double(monitorOrigin.x), y: root.1 - Double(monitorOrigin.y))
        } else {
            point = screenPoint(kind, local: local)
        }
        let now = monotonicNow()
        if debugging { say("debug: \(kind.rawValue) local \(local) committed \(committedOrigin) requested \(requestedOrigin) -> \(point)") }
        switch kind {
        case GDK_BUTTON_PRESS, GDK_TOUCH_BEGIN: handle(.pointerDown(point, at: now))
        case GDK_MOTION_NOTIFY, GDK_TOUCH_UPDATE: handle(.pointerMove(point, at: now))
        case GDK_BUTTON_RELEASE, GDK_TOUCH_END: handle(.pointerUp(point, at: now))
        case GDK_TOUCH_CANCEL: handle(.pointerCancel(at: now))
        default: break
        }
    }

    /// Wayland tells a surface nothing about where it is: the pointer on the
    /// screen is where the surface is plus where on it. While a drag moves
    /// the surface, "where the surface is" depends on the compositor (see
    /// ``PressReference``). The first time the surface has moved under a
    /// held pointer by more than the slop, the two are told apart: measured
    /// from the current place, the pointer stays near where it pressed the
    /// button (the button follows it); measured from the press, it is as far
    /// from there as the surface has moved.
    private func screenPoint(_ kind: GdkEventType, local: (Double, Double)) -> ScreenPoint {
        if kind == GDK_BUTTON_PRESS || kind == GDK_TOUCH_BEGIN {
            pressOrigin = committedOrigin
            pressLocal = local
        }
        let moved = ScreenPoint(x: committedOrigin.x, y: committedOrigin.y).distance(to: pressOrigin)
        if pressReference == .unknown, moved > 2 * settings.dragSlop {
            let away = ScreenPoint(x: local.0, y: local.1).distance(to: ScreenPoint(x: pressLocal.0, y: pressLocal.1))
            pressReference = away > moved / 2 ? .pressTime : .current
            if debugging { say("debug: positions during a press are measured from \(pressReference)") }
        }
        let reference = pressReference == .pressTime ? pressOrigin : committedOrigin
        return ScreenPoint(x: reference.x + local.0, y: reference.y + local.1)
    }

    /// A frame was committed: the margins asked for are the compositor's now.
    func framePainted() {
        if debugging { say("debug: frame, committed \(requestedOrigin)") }
        committedOrigin = requestedOrigin
    }

    func hover(_ inside: Bool) { handle(.hover(inside, at: monotonicNow())) }

    func activatedByKeyboard() { handle(.activate(at: monotonicNow())) }

    func tick() {
        timerSource = 0
        handle(.tick(at: monotonicNow()))
    }

    func menuClosed() {
        if scan.isActive { scanEnded() }
        handle(.menuClosed(at: monotonicNow()))
    }

    func handle(_ event: ButtonEvent) {
        apply(machine.handle(event))
        schedule()
    }

    func withEvent(_ event: UnsafeMutableRawPointer?, _ body: () -> Void) {
        currentEvent = event.map { cast($0) }
        body()
        currentEvent = nil
    }

    // MARK: doing what the model says

    private func apply(_ outputs: [ButtonOutput]) {
        for output in outputs {
            switch output {
            case .opacity(let value):
                if debugging { say("debug: opacity \(value)") }
                // Busy, it stays clear: it shows the play and stops it.
                gtk_widget_set_opacity(button, isBusy ? 1 : value)
            case .move(let origin):
                moveTo(origin, resting: nil)
            case .place(let position, let origin):
                moveTo(origin, resting: position)
            case .save(let position):
                PositionStore.save(position, path: positionPath)
                say("moved to the \(position)")
            case .perform(let action, let gesture):
                perform(action, for: gesture)
            case .stop:
                tapped(gesture: .singleTap)
            }
        }
    }

    func moveTo(_ origin: ScreenPoint, resting position: EdgePosition?) {
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(window)
        let x = Int32(origin.x.rounded())
        let y = Int32(origin.y.rounded())
        requestedOrigin = ScreenPoint(x: Double(x), y: Double(y))
        if !watchingFrames { committedOrigin = requestedOrigin }
        switch mode {
        case .layerShell:
            // Anchored to the edge it rests on, so that it stays there when
            // the monitor changes size; while dragged, to the top-left corner.
            let size = Int32(settings.size)
            let screen = machine.screen
            let edge = position?.edge
            let right = edge == .right
            let bottom = edge == .bottom
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, right ? 0 : 1)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_RIGHT, right ? 1 : 0)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, bottom ? 0 : 1)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_BOTTOM, bottom ? 1 : 0)
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, right ? 0 : x)
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_RIGHT, right ? Int32(screen.width) - size - x : 0)
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, bottom ? 0 : y)
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_BOTTOM, bottom ? Int32(screen.height) - size - y : 0)
        case .x11KeepAbove:
            gtk_window_move(gtkWindow, monitorOrigin.x + x, monitorOrigin.y + y)
        case .ordinary:
            break  // a Wayland window cannot place itself
        }
    }

    /// Whether the button may take the keyboard (on demand: when clicked).
    /// Off while a surface of ours that takes the keyboard (the Customize
    /// panel, the placing layer) is showing: sway 1.7 gives the keyboard to
    /// the oldest overlay surface that wants it at all, on demand or not, so
    /// the button would keep it from them.
    func buttonTakesKeyboard(_ takes: Bool) {
        guard mode == .layerShell else { return }
        gtk_layer_set_keyboard_mode(
            cast(window), takes ? GTK_LAYER_SHELL_KEYBOARD_MODE_ON_DEMAND : GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
    }

    /// One timer for the model's next wake, or none: idle and faded, the
    /// button wakes for nothing.
    func schedule() {
        if timerSource != 0 {
            g_source_remove(timerSource)
            timerSource = 0
        }
        let now = monotonicNow()
        guard let wake = machine.nextWake(after: now) else { return }
        let waitMilliseconds: Int64 = (wake - now + 999) / 1000
        let milliseconds = guint(clamping: max(Int64(0), waitMilliseconds))
        timerSource = g_timeout_add(milliseconds, onTimer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Only the circle takes input: clicks beside it reach the window beneath.
    func updateInputShape() {
        let size = Int32(settings.size)
        guard let region = cairo_region_create() else { return }
        let radius = Double(size) / 2
        for row in 0..<size {
            let dy = Double(row) + 0.5 - radius
            let half = (radius * radius - dy * dy).squareRoot()
            let left = Int32((radius - half).rounded(.down))
            var rectangle = cairo_rectangle_int_t(x: left, y: row, width: max(1, size - 2 * left), height: 1)
            cairo_region_union_rectangle(region, &rectangle)
        }
        gtk_widget_input_shape_combine_region(window, region)
        // Without a compositor (X11 with none) a window has no transparency:
        // the square around the circle would be drawn black. Shaped, it is round.
        if gdk_screen_is_composited(gtk_widget_get_screen(window)) == 0 { gtk_widget_shape_combine_region(window, region) }
        cairo_region_destroy(region)
    }

    // MARK: the menu (MenuView.swift builds it)

    func openMenu(gesture: ButtonGesture) {
        if let old = menu { gtk_widget_destroy(old) }
        let menu = makeMenu()
        self.menu = menu
        let (widgetAnchor, menuAnchor): (GdkGravity, GdkGravity) =
            switch machine.position.edge {
            case .right: (GDK_GRAVITY_NORTH_WEST, GDK_GRAVITY_NORTH_EAST)
            case .left: (GDK_GRAVITY_NORTH_EAST, GDK_GRAVITY_NORTH_WEST)
            case .top: (GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST)
            case .bottom: (GDK_GRAVITY_NORTH_WEST, GDK_GRAVITY_SOUTH_WEST)
            }
        if timing {
            // benchmarks/button: from here (the tap handled) to the menu's first frame.
            menuOpenedAt = MonotonicClock.nowMicroseconds()
            menuDrawn = false
            connect(menu, "draw", unsafeBitCast(menuFirstDraw, to: GCallback.self), nil, after: true)
        }
        gtk_widget_show_all(menu)
        gtk_menu_popup_at_widget(cast(menu), button, widgetAnchor, menuAnchor, currentEvent)
        if currentEvent == nil { gtk_menu_shell_select_first(cast(menu), 0) }
        say("menu open (\(gesture.rawValue))")
        refreshSavedGestures()
    }

    private func installStyle() {
        let size = settings.size
        let target = ButtonSettings.minimumTarget(textScale: textScale)
        let css = """
            window.gesturectl-button { background: transparent; }
            button.gesturectl-button { padding: 0; margin: 0; border-width: 0; min-width: \(size)px; min-height: \(size)px; }
            menu.gesturectl-menu menuitem { min-height: \(target)px; min-width: \(Int((200 * textScale).rounded()))px; padding: 0 16px; }
            menu.gesturectl-menu menuitem:hover { box-shadow: inset 0 0 0 4px @theme_selected_fg_color, inset 0 0 0 7px @theme_fg_color; }
            window.gesturectl-placing { background: rgba(0, 0, 0, 0.18); }
            label.gesturectl-placing { background: rgba(20, 20, 20, 0.9); color: white; padding: 14px 20px; border-radius: 8px; font-size: 18px; }
            window.gesturectl-note { background: transparent; }
            label.gesturectl-note { background: rgba(20, 20, 20, 0.92); color: white; padding: 12px 16px; border-radius: 8px; }
            window.gesturectl-customize { border: 1px solid #5e5e5e; }
            window.gesturectl-customize button { min-height: \(target)px; min-width: \(target)px; padding: 0 12px; }
            label.gesturectl-customize-title { font-size: 18px; font-weight: bold; }
            """
        let provider = gtk_css_provider_new()
        _ = gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(
            gtk_widget_get_screen(window), OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    /// The button: a dark disc with a white rim and AssistiveTouch's rings;
    /// a ring outside the rim while it has the keyboard's focus (a shape,
    /// not only a colour).
    func draw(_ cr: OpaquePointer) {
        let size = Double(settings.size)
        let centre = size / 2
        let focused = gtk_widget_has_visible_focus(button) != 0
        let rim = focused ? centre - 5 : centre - 1.5
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, 0, 0, 0, 0)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        if focused {
            cairo_arc(cr, centre, centre, centre - 1.5, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, 0.2, 0.55, 1, 1)
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
        }
        cairo_arc(cr, centre, centre, rim, 0, 2 * Double.pi)
        cairo_set_source_rgba(cr, 0.12, 0.12, 0.12, 0.92)
        cairo_fill_preserve(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
        if isBusy {
            drawBusy(cr, centre: centre, rim: rim)
            return
        }
        for (share, alpha) in [(0.62, 0.35), (0.46, 0.55), (0.3, 0.95)] {
            cairo_arc(cr, centre, centre, rim * share, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, 1, 1, 1, alpha)
            cairo_fill(cr)
        }
    }

    /// Busy (a play under way): a turning arc inside the rim (an activity
    /// indicator, as Apple's guidance asks) around a stop square, in place
    /// of the rings: a change of shape, not of colour alone.
    func drawBusy(_ cr: OpaquePointer, centre: Double, rim: Double) {
        let turn = Double(monotonicNow() % 1_000_000) / 1_000_000 * 2 * Double.pi
        cairo_set_line_width(cr, max(3, rim * 0.14))
        cairo_set_source_rgba(cr, 1, 1, 1, 0.3)
        cairo_arc(cr, centre, centre, rim * 0.72, 0, 2 * Double.pi)
        cairo_stroke(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_arc(cr, centre, centre, rim * 0.72, turn, turn + Double.pi * 0.6)
        cairo_stroke(cr)
        let half = rim * 0.26
        cairo_rectangle(cr, centre - half, centre - half, 2 * half, 2 * half)
        cairo_fill(cr)
    }

}

// MARK: C callbacks (each finds its ButtonWindow in user data)

func view(_ data: gpointer?) -> ButtonWindow { Unmanaged<ButtonWindow>.fromOpaque(data!).takeUnretainedValue() }

private let onDestroy: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { _, _ in gtk_main_quit() }

private let onMap: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> gboolean = { _, _, data in
    view(data).mapped()
    return 0
}

private let onAfterPaint: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { _, data in
    view(data).framePainted()
}

private let onSizeAllocate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> Void = { _, _, data in
    view(data).updateInputShape()
}

/// Clears the whole window before its content draws: GTK paints no
/// background for an app-paintable window, and a translucent button (or
/// the note beside it) must not be drawn over whatever the buffer held.
let onClearWindow: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> gboolean = { _, cr, _ in
    guard let cr else { return 0 }
    cairo_save(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_rgba(cr, 0, 0, 0, 0)
    cairo_paint(cr)
    cairo_restore(cr)
    return 0  // the button draws next
}

private let onDraw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> gboolean = { _, cr, data in
    if let cr { view(data).draw(cr) }
    return 1
}

private let onButton: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventButton>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    let e = event.pointee
    // The primary button only; a double-click's extra GDK events are ignored
    // (the model counts taps itself).
    guard e.button == 1, e.type == GDK_BUTTON_PRESS || e.type == GDK_BUTTON_RELEASE else { return 1 }
    let target = view(data)
    target.withEvent(UnsafeMutableRawPointer(event)) {
        target.pointer(e.type, local: (e.x, e.y), root: (e.x_root, e.y_root))
    }
    return 1
}

private let onMotion: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventMotion>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    let e = event.pointee
    view(data).pointer(GDK_MOTION_NOTIFY, local: (e.x, e.y), root: (e.x_root, e.y_root))
    return 1
}

private let onCrossing: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventCrossing>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    view(data).hover(event.pointee.type == GDK_ENTER_NOTIFY)
    return 0
}

private let onTouch: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> gboolean = { _, event, data in
    guard let event else { return 0 }
    let touch = event.assumingMemoryBound(to: GdkEventTouch.self).pointee
    guard touch.emulating_pointer != 0 else { return 1 }  // the first finger only
    let target = view(data)
    target.withEvent(event) {
        target.pointer(touch.type, local: (touch.x, touch.y), root: (touch.x_root, touch.y_root))
    }
    return 1
}

private let onClicked: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { _, data in
    view(data).activatedByKeyboard()
}

private let onTimer: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).tick()
    return 0  // G_SOURCE_REMOVE: the next timer is set by schedule()
}

let onMenuDeactivate: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { _, data in
    view(data).menuClosed()
}

/// GESTURECTL_BUTTON_DEBUG=1: every pointer event and frame on standard error.
let debugging = ProcessEnvironment.variables()["GESTURECTL_BUTTON_DEBUG"] == "1"

/// GESTURECTL_BUTTON_TIMING=1 (benchmarks/button, button-place): a `timing:`
/// line when a menu opened by a tap has drawn its first frame, and when a
/// click places a gesture and its play is asked for, with the monotonic clock.
let timing = ProcessEnvironment.variables()["GESTURECTL_BUTTON_TIMING"] == "1"
/// When the last menu was asked for, and whether it has drawn since (the
/// main thread's alone: GTK calls everything there).
nonisolated(unsafe) private var menuOpenedAt: Int64 = 0
nonisolated(unsafe) private var menuDrawn = false

/// The menu's "draw" handler: its first frame says when, once.
private let menuFirstDraw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, _, _ in
    if !menuDrawn {
        menuDrawn = true
        let now = MonotonicClock.nowMicroseconds()
        say("timing: menu drawn at \(now) µs, \(now - menuOpenedAt) µs after the tap was handled")
    }
    return 0
}

/// GLib's monotonic clock (CLOCK_MONOTONIC), in microseconds.
func monotonicNow() -> Int64 { Int64(g_get_monotonic_time()) }
