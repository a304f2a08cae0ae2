import ButtonModel
import CGtk
import GestureModel
import OperatingSystem

/// Placing a saved gesture: a full-screen transparent surface on each
/// monitor takes one click, goes away, and the daemon plays the gesture
/// there (`play` with `at` in percents of that monitor, not waiting); the
/// button shows it is busy until the job ends, and a tap on it cancels.
extension ButtonWindow {
    /// A saved gesture was chosen: the next click on a screen places it.
    func startPlacing(_ gesture: String) {
        guard flow.choose(gesture) else {
            note("A gesture is playing: tap the button to stop it first")
            return
        }
        closePlacing()
        buttonTakesKeyboard(false)
        let text = "Click where \u{201C}\(DisplayText.escaped(gesture))\u{201D} should play (Return: where the pointer is). Escape or the button cancels."
        let me = Unmanaged.passUnretained(self).toOpaque()
        for index in monitors.indices {
            let surface = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(surface)
            gtk_window_set_title(gtkWindow, "gesturectl: place the gesture")
            gtk_window_set_decorated(gtkWindow, 0)
            // Not app-paintable: GTK paints the style's translucent dim, so
            // that the screen shows it waits for a click.
            if let visual = gdk_screen_get_rgba_visual(gtk_widget_get_screen(surface)) { gtk_widget_set_visual(surface, visual) }
            gtk_style_context_add_class(gtk_widget_get_style_context(surface), "gesturectl-placing")
            coverMonitor(gtkWindow, index, namespace: "gesturectl-placing")
            let label = gtk_label_new(text)!
            gtk_label_set_line_wrap(cast(label), 1)
            gtk_style_context_add_class(gtk_widget_get_style_context(label), "gesturectl-placing")
            gtk_widget_set_halign(label, GTK_ALIGN_CENTER)
            gtk_widget_set_valign(label, GTK_ALIGN_START)
            gtk_widget_set_margin_top(label, 48)
            gtk_container_add(cast(surface), label)
            gtk_widget_add_events(
                surface,
                gint(GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue | GDK_KEY_PRESS_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
            g_object_set_data(UnsafeMutableRawPointer(surface).assumingMemoryBound(to: GObject.self), monitorKey,
                UnsafeMutableRawPointer(bitPattern: index + 1))
            connect(surface, "button-press-event", unsafeBitCast(onPlacingPress, to: GCallback.self), me)
            connect(surface, "button-release-event", unsafeBitCast(onPlacingPress, to: GCallback.self), me)
            connect(surface, "touch-event", unsafeBitCast(onPlacingTouch, to: GCallback.self), me)
            connect(surface, "key-press-event", unsafeBitCast(onPlacingKey, to: GCallback.self), me)
            // The gesture's fingers at the pointer (PlacingPreviewView.swift).
            gtk_widget_add_events(surface, gint(GDK_POINTER_MOTION_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue))
            connect(surface, "motion-notify-event", unsafeBitCast(onPlacingMotion, to: GCallback.self), me)
            connect(surface, "leave-notify-event", unsafeBitCast(onPlacingLeave, to: GCallback.self), me)
            connect(surface, "draw", unsafeBitCast(onPlacingDraw, to: GCallback.self), me, after: true)
            gtk_widget_show_all(surface)
            placingWindows.append(surface)
        }
        showPreview(of: gesture)
        say("placing \(shown(gesture)): click where it should play (Escape cancels)")
        flowChanged()
    }

    /// Makes `gtkWindow` cover monitor `index` above every window and take
    /// the keyboard: a layer-shell overlay anchored to all four edges, or a
    /// keep-above full-screen window where there is no layer shell. The
    /// placing layer and Create New Gesture's canvas are such surfaces.
    func coverMonitor(_ gtkWindow: UnsafeMutablePointer<GtkWindow>, _ index: Int, namespace: String) {
        switch mode {
        case .layerShell:
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_OVERLAY)
            gtk_layer_set_namespace(gtkWindow, namespace)
            if let monitor = gdk_display_get_monitor(gdk_display_get_default(), Int32(index)) { gtk_layer_set_monitor(gtkWindow, monitor) }
            for edge in [GTK_LAYER_SHELL_EDGE_LEFT, GTK_LAYER_SHELL_EDGE_RIGHT, GTK_LAYER_SHELL_EDGE_TOP, GTK_LAYER_SHELL_EDGE_BOTTOM] {
                gtk_layer_set_anchor(gtkWindow, edge, 1)
            }
            gtk_layer_set_exclusive_zone(gtkWindow, -1)
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE)
        case .x11KeepAbove, .ordinary:
            gtk_window_set_keep_above(gtkWindow, 1)
            gtk_window_fullscreen_on_monitor(gtkWindow, gtk_widget_get_screen(UnsafeMutableRawPointer(gtkWindow).assumingMemoryBound(to: GtkWidget.self)), Int32(index))
        }
    }

    /// Tells the machine whether the button is a stop button now (placing or playing).
    func flowChanged() {
        let busy = isBusy || flow.isPlacing
        if busy != machine.isBusy { handle(.busy(busy, at: monotonicNow())) }
    }

    /// Takes the placing surfaces away, and makes sure the compositor has
    /// (a round trip), so that the play's touches reach what is beneath.
    func closePlacing() {
        guard !placingWindows.isEmpty else { return }
        for surface in placingWindows { gtk_widget_destroy(surface) }
        placingWindows = []
        placingPreview = nil
        placingPointer = nil
        placingPressed = false
        if customizeWindow.map({ gtk_widget_get_visible($0) == 0 }) ?? true { buttonTakesKeyboard(true) }
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
    }

    /// A press (`down`) or its release on a placing surface: the release
    /// places. The surfaces go away only once the press is over: destroyed
    /// while it is held, GDK keeps the press's implicit grab on the dead
    /// surface (the compositor sends the release elsewhere), and every
    /// later click on the button is lost to it.
    func placingPress(down: Bool, monitor index: Int, local: (Double, Double), root: (Double, Double)) {
        if down {
            placingPressed = flow.isPlacing
        } else if placingPressed {
            placingPressed = false
            placingClick(monitor: index, local: local, root: root)
        }
    }

    /// A click (or the first finger's touch) on monitor `index`'s placing surface.
    func placingClick(monitor index: Int, local: (Double, Double), root: (Double, Double)) {
        guard flow.isPlacing, monitors.indices.contains(index) else { return }
        if timing { say("timing: place clicked at \(MonotonicClock.nowMicroseconds()) µs") }
        let frame = monitors[index]
        let point: ScreenPoint =
            mode == .layerShell ? ScreenPoint(x: local.0, y: local.1) : ScreenPoint(x: root.0 - frame.x, y: root.1 - frame.y)
        if index == buttonMonitor, isOnButton(point) {
            _ = flow.cancelPlacement()
            closePlacing()
            say("placing cancelled")
            flowChanged()
            return
        }
        guard let placement = PlayPlacement.onMonitor(index, frame, local: point) else { return }
        closePlacing()
        guard let gesture = flow.placed() else { return }
        let at = "\(DecimalText.shortest(placement.xPercent))%, \(DecimalText.shortest(placement.yPercent))%"
        say("playing \(shown(gesture)) at \(at) of monitor \(index)")
        updateBusy()
        if timing { say("timing: play asked at \(MonotonicClock.nowMicroseconds()) µs") }
        link.play(gesture, at: placement) { [self] reply in
            switch reply {
            case .queued(let job):
                say("job \(job) is \(shown(gesture))")
                if flow.started(job: job) { cancelJob(job) }
            case .ended(let state):
                flow.ended()
                switch state {
                case .done: say("played \(shown(gesture))")
                case .cancelled: note("Stopped \u{201C}\(DisplayText.escaped(gesture))\u{201D}: every finger lifted")
                default: note("\u{201C}\(DisplayText.escaped(gesture))\u{201D} failed while it played (the daemon's log says why)")
                }
            case .failed(let failure):
                flow.ended()
                if failure.unreachable { daemonMissing = failure.message }
                note("Could not play \u{201C}\(DisplayText.escaped(gesture))\u{201D}: \(failure.message)"
                    + (failure.unreachable ? "; \(ButtonMenu.startHint)" : ""))
            default:
                break
            }
            updateBusy()
        }
    }

    /// Return (or Space) on a placing surface: it plays where the pointer
    /// is on that monitor, or at its centre when the pointer is elsewhere
    /// (a keyboard alone can place it).
    func placingReturn(monitor index: Int) {
        guard flow.isPlacing, monitors.indices.contains(index) else { return }
        let frame = monitors[index]
        let point = placingPointer.flatMap { $0.monitor == index ? $0.point : nil } ?? ScreenPoint(x: frame.width / 2, y: frame.height / 2)
        placingClick(monitor: index, local: (point.x, point.y), root: (frame.x + point.x, frame.y + point.y))
    }

    /// Escape on a placing surface.
    func placingEscape() {
        guard flow.cancelPlacement() else { return }
        closePlacing()
        say("placing cancelled")
        flowChanged()
    }

    /// Whether a point of the button's monitor is on the button's circle.
    func isOnButton(_ point: ScreenPoint) -> Bool {
        let radius = Double(settings.size) / 2
        let centre = ScreenPoint(x: machine.origin.x + radius, y: machine.origin.y + radius)
        return point.distance(to: centre) <= radius
    }

    /// Sends `cancel` for `job`; a job that already ended is no problem.
    func cancelJob(_ job: Int) {
        link.cancel(job: job) { [self] reply in
            if case .failed(let failure) = reply, flow.isBusy {
                note("Could not stop the play: \(failure.message)")
            }
        }
    }

    /// The button as the flow is: busy (the turning ring, named "Stop
    /// playing …", fully visible, redrawn ~20 times a second) or not.
    func updateBusy() {
        if !flow.isBusy, fingertips.isActive { return showFingertipsBusy() }
        let accessible = gtk_widget_get_accessible(button)
        if flow.isBusy {
            let name = "Stop playing \(DisplayText.escaped(flow.gesture ?? ""))"
            if let accessible {
                atk_object_set_name(accessible, name)
                atk_object_set_description(accessible, "A gesture is playing: tap to stop it, with every finger lifted")
            }
            gtk_widget_set_tooltip_text(button, name)
            gtk_widget_set_opacity(button, 1)
            if spinTimer == 0 { spinTimer = g_timeout_add(50, onSpin, Unmanaged.passUnretained(self).toOpaque()) }
        } else {
            if let accessible {
                atk_object_set_name(accessible, "gesturectl menu")
                atk_object_set_description(accessible, "Opens the gesturectl menu: saved gestures and buttons")
            }
            gtk_widget_set_tooltip_text(button, "gesturectl menu")
            gtk_widget_set_opacity(button, machine.opacity)
            if spinTimer != 0 {
                g_source_remove(spinTimer)
                spinTimer = 0
            }
        }
        gtk_widget_queue_draw(button)
        flowChanged()
    }

    // MARK: a note beside the button

    /// Shows `text` beside the button for a few seconds (and on standard
    /// error): a problem, or why an item does nothing yet. It takes no input.
    func note(_ text: String) {
        say(text)
        if noteWindow == nil { makeNoteWindow() }
        guard let noteWindow, let noteLabel else { return }
        gtk_label_set_text(cast(noteLabel), text)
        if let accessible = gtk_widget_get_accessible(noteLabel) { atk_object_set_name(accessible, text) }
        placeNote()
        gtk_widget_show_all(noteWindow)
        if let region = cairo_region_create() {
            gtk_widget_input_shape_combine_region(noteWindow, region)  // clicks go through it
            cairo_region_destroy(region)
        }
        if noteTimer != 0 { g_source_remove(noteTimer) }
        let seconds = min(12, 4 + text.count / 25)
        noteTimer = g_timeout_add(guint(seconds * 1000), onNoteTimeout, Unmanaged.passUnretained(self).toOpaque())
    }

    func hideNote() {
        noteTimer = 0
        if let noteWindow { gtk_widget_hide(noteWindow) }
    }

    private func makeNoteWindow() {
        let surface = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(surface)
        gtk_window_set_title(gtkWindow, "gesturectl button: message")
        gtk_window_set_decorated(gtkWindow, 0)
        gtk_window_set_resizable(gtkWindow, 0)
        gtk_window_set_accept_focus(gtkWindow, 0)
        gtk_widget_set_app_paintable(surface, 1)
        if let visual = gdk_screen_get_rgba_visual(gtk_widget_get_screen(surface)) { gtk_widget_set_visual(surface, visual) }
        gtk_style_context_add_class(gtk_widget_get_style_context(surface), "gesturectl-note")
        switch mode {
        case .layerShell:
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_OVERLAY)
            gtk_layer_set_namespace(gtkWindow, "gesturectl-note")
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
            let display = gdk_display_get_default()
            if let monitor = gdk_display_get_monitor(display, Int32(buttonMonitor)) { gtk_layer_set_monitor(gtkWindow, monitor) }
        case .x11KeepAbove, .ordinary:
            gtk_window_set_keep_above(gtkWindow, 1)
            gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_NOTIFICATION)
        }
        let label = gtk_label_new("")!
        gtk_label_set_line_wrap(cast(label), 1)
        gtk_label_set_max_width_chars(cast(label), 48)
        gtk_style_context_add_class(gtk_widget_get_style_context(label), "gesturectl-note")
        gtk_container_add(cast(surface), label)
        connect(surface, "draw", unsafeBitCast(onClearWindow, to: GCallback.self), nil)
        noteWindow = surface
        noteLabel = label
    }

    /// Beside the button, on the side away from its edge.
    private func placeNote() {
        guard let noteWindow else { return }
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(noteWindow)
        let size = Int32(settings.size)
        let x = Int32(machine.origin.x.rounded())
        let y = Int32(machine.origin.y.rounded())
        let gap: Int32 = 12
        switch mode {
        case .layerShell:
            let edge = machine.position.edge
            let screen = machine.screen
            for side in [GTK_LAYER_SHELL_EDGE_LEFT, GTK_LAYER_SHELL_EDGE_RIGHT, GTK_LAYER_SHELL_EDGE_TOP, GTK_LAYER_SHELL_EDGE_BOTTOM] {
                gtk_layer_set_anchor(gtkWindow, side, 0)
                gtk_layer_set_margin(gtkWindow, side, 0)
            }
            switch edge {
            case .right:
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_RIGHT, 1)
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_RIGHT, Int32(screen.width) - x + gap)
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, y)
            case .left:
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, 1)
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, x + size + gap)
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, y)
            case .top:
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, 1)
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, max(0, x - 100))
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, y + size + gap)
            case .bottom:
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, 1)
                gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_BOTTOM, 1)
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_LEFT, max(0, x - 100))
                gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_BOTTOM, Int32(screen.height) - y + gap)
            }
        case .x11KeepAbove:
            gtk_window_move(gtkWindow, monitorOrigin.x + max(0, x - 360), monitorOrigin.y + y)
        case .ordinary:
            break
        }
    }

    /// A turn of the busy ring.
    func spin() { gtk_widget_queue_draw(button) }
}

/// The key under which a placing surface carries its monitor's index (plus one).
let monitorKey = "gesturectl-monitor"

func monitorIndex(_ widget: UnsafeMutableRawPointer?) -> Int {
    guard let widget else { return -1 }
    return Int(bitPattern: g_object_get_data(widget.assumingMemoryBound(to: GObject.self), monitorKey)) - 1
}

private let onPlacingPress: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventButton>?, gpointer?) -> gboolean = {
    widget, event, data in
    guard let event, event.pointee.type == GDK_BUTTON_PRESS || event.pointee.type == GDK_BUTTON_RELEASE else { return 1 }
    let e = event.pointee
    view(data).placingPress(
        down: e.type == GDK_BUTTON_PRESS, monitor: monitorIndex(widget), local: (e.x, e.y), root: (e.x_root, e.y_root))
    return 1
}

private let onPlacingTouch: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> gboolean = {
    widget, event, data in
    guard let event else { return 1 }
    let touch = event.assumingMemoryBound(to: GdkEventTouch.self).pointee
    // The first finger's lift places it (where it lifted); GTK emulates no click then.
    guard touch.type == GDK_TOUCH_BEGIN || touch.type == GDK_TOUCH_END, touch.emulating_pointer != 0 else { return 1 }
    view(data).placingPress(
        down: touch.type == GDK_TOUCH_BEGIN, monitor: monitorIndex(widget), local: (touch.x, touch.y),
        root: (touch.x_root, touch.y_root))
    return 1
}

private let onPlacingKey: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
    widget, event, data in
    guard let event else { return 1 }
    switch event.pointee.keyval {
    case guint(GDK_KEY_Escape): view(data).placingEscape()
    case guint(GDK_KEY_Return), guint(GDK_KEY_KP_Enter), guint(GDK_KEY_space): view(data).placingReturn(monitor: monitorIndex(widget))
    default: break
    }
    return 1
}

private let onSpin: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).spin()
    return 1  // G_SOURCE_CONTINUE: removed by updateBusy when the play ends
}

private let onNoteTimeout: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).hideNote()
    return 0
}

