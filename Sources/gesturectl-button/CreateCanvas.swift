import ButtonModel
import CGtk
import GestureModel
import OperatingSystem

/// The canvas's widgets while it is open.
final class CanvasView {
    let window: UnsafeMutablePointer<GtkWidget>
    let drawing: UnsafeMutablePointer<GtkWidget>
    let status: UnsafeMutablePointer<GtkWidget>
    let problem: UnsafeMutablePointer<GtkWidget>
    let nameRow: UnsafeMutablePointer<GtkWidget>
    let entry: UnsafeMutablePointer<GtkWidget>
    let buttonRow: UnsafeMutablePointer<GtkWidget>
    /// The controls shown, in order (a button carries its index).
    var controls: [CanvasFlow.Control] = []
    /// Where the drawing device's surface lies on the canvas.
    var area = CanvasArea.relativePointer
    /// Which recording the replies are for (a Redo starts another).
    var recording = 0
    /// Review: when it started (µs, monotonic) and its timer.
    var reviewStart: Int64?
    var reviewTimer: guint = 0
    /// The entry's text is being set by the canvas, not typed.
    var settingName = false
    /// Fingers on a touchscreen canvas, by touch sequence, while they are
    /// down: a thin trace of where each goes, until the daemon's stroke
    /// (pushed as it lifts) is drawn in its place.
    var touches: [UInt: [(x: Double, y: Double)]] = [:]
    /// Traces of fingers that lifted, until their strokes come.
    var lifted: [[(x: Double, y: Double)]] = []

    init(
        window: UnsafeMutablePointer<GtkWidget>, drawing: UnsafeMutablePointer<GtkWidget>, status: UnsafeMutablePointer<GtkWidget>,
        problem: UnsafeMutablePointer<GtkWidget>, nameRow: UnsafeMutablePointer<GtkWidget>, entry: UnsafeMutablePointer<GtkWidget>,
        buttonRow: UnsafeMutablePointer<GtkWidget>
    ) {
        self.window = window
        self.drawing = drawing
        self.status = status
        self.problem = problem
        self.nameRow = nameRow
        self.entry = entry
        self.buttonRow = buttonRow
    }
}

/// Create New Gesture on screen: a full-screen canvas (a layer-shell
/// overlay over the whole monitor, taking the keyboard; a keep-above
/// full-screen window elsewhere), so that the windows beneath get none of
/// the strokes. The daemon records from the drawing device; each stroke is
/// drawn from its `record` event as it lifts, scaled from the device's
/// units to the canvas (``CanvasArea``); on a touchscreen, whose strokes
/// land under the fingers, a thin trace follows each finger until then. A panel at the top says where the
/// flow is in words and has its controls: named GtkButtons of at least
/// 48 × 48 px (Stop; Review, Redo, Save with the name entry, Discard; the
/// question's Keep it and Discard it), reached with Tab and the arrows,
/// pressed with Return or Space; Escape answers a question with its
/// default, and otherwise is Discard (ButtonModel's ``CanvasFlow``).
extension ButtonWindow {
    /// Create New Gesture was chosen.
    func openCanvas() {
        guard !canvas.isOpen else { return }
        let effects = canvas.open(library: savedGestureNames)
        makeCanvas()
        say("canvas open")
        carryOut(effects)
    }

    private func makeCanvas() {
        installCanvasStyle()
        let surface = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(surface)
        gtk_window_set_title(gtkWindow, "Create New Gesture")
        gtk_window_set_decorated(gtkWindow, 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(surface), "gesturectl-canvas")
        coverMonitor(gtkWindow, buttonMonitor, namespace: "gesturectl-canvas")
        if let accessible = gtk_widget_get_accessible(surface) {
            atk_object_set_name(accessible, "Create New Gesture")
            atk_object_set_description(accessible, "Draw the gesture anywhere on the screen; the controls are at the top")
        }

        let overlay = gtk_overlay_new()!
        gtk_container_add(cast(surface), overlay)
        let drawing = gtk_drawing_area_new()!
        gtk_widget_set_hexpand(drawing, 1)
        gtk_widget_set_vexpand(drawing, 1)
        gtk_widget_add_events(
            drawing, gint(GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        if let accessible = gtk_widget_get_accessible(drawing) {
            atk_object_set_name(accessible, "Drawing area")
            atk_object_set_description(accessible, "The strokes recorded so far, each numbered where it starts")
        }
        gtk_container_add(cast(overlay), drawing)

        let panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
        gtk_style_context_add_class(gtk_widget_get_style_context(panel), "gesturectl-canvas-panel")
        gtk_widget_set_halign(panel, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(panel, GTK_ALIGN_START)
        gtk_widget_set_margin_top(panel, 24)
        let title = gtk_label_new("Create New Gesture")!
        gtk_style_context_add_class(gtk_widget_get_style_context(title), "gesturectl-canvas-title")
        gtk_widget_set_halign(title, GTK_ALIGN_START)
        gtk_box_pack_start(cast(panel), title, 0, 0, 0)
        let status = gtk_label_new("")!
        gtk_label_set_line_wrap(cast(status), 1)
        gtk_label_set_max_width_chars(cast(status), 60)
        gtk_label_set_xalign(cast(status), 0)
        gtk_box_pack_start(cast(panel), status, 0, 0, 0)

        let nameRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        let nameLabel = gtk_label_new_with_mnemonic("_Name:")!
        let entry = gtk_entry_new()!
        gtk_label_set_mnemonic_widget(cast(nameLabel), entry)
        gtk_entry_set_activates_default(cast(entry), 1)
        gtk_entry_set_width_chars(cast(entry), 32)
        gtk_widget_set_size_request(entry, -1, 48)
        if let accessible = gtk_widget_get_accessible(entry) {
            atk_object_set_name(accessible, "Name of the new gesture")
            atk_object_set_description(accessible, "The name it is saved under: suggested from what it is; change it as you like")
        }
        gtk_box_pack_start(cast(nameRow), nameLabel, 0, 0, 0)
        gtk_box_pack_start(cast(nameRow), entry, 1, 1, 0)
        gtk_box_pack_start(cast(panel), nameRow, 0, 0, 0)
        let problem = gtk_label_new("")!
        gtk_label_set_line_wrap(cast(problem), 1)
        gtk_label_set_max_width_chars(cast(problem), 60)
        gtk_label_set_xalign(cast(problem), 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(problem), "gesturectl-canvas-problem")
        gtk_box_pack_start(cast(panel), problem, 0, 0, 0)

        let buttonRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_pack_start(cast(panel), buttonRow, 0, 0, 0)
        gtk_overlay_add_overlay(cast(overlay), panel)

        let me = Unmanaged.passUnretained(self).toOpaque()
        connect(drawing, "draw", unsafeBitCast(onCanvasDraw, to: GCallback.self), me)
        connect(drawing, "touch-event", unsafeBitCast(onCanvasTouch, to: GCallback.self), me)
        connect(entry, "changed", unsafeBitCast(onCanvasNameChanged, to: GCallback.self), me)
        connect(surface, "key-press-event", unsafeBitCast(onCanvasKey, to: GCallback.self), me)
        connect(surface, "delete-event", unsafeBitCast(onCanvasDelete, to: GCallback.self), me)
        canvasView = CanvasView(
            window: surface, drawing: drawing, status: status, problem: problem, nameRow: nameRow, entry: entry, buttonRow: buttonRow)
        // sway gives the keyboard to the oldest overlay that wants it.
        buttonTakesKeyboard(false)
        if noteTimer != 0 { g_source_remove(noteTimer) }
        hideNote()
        gtk_widget_show_all(surface)
        showCanvas()
        gtk_window_present(gtkWindow)
    }

    /// Carries out what the flow asks for, then shows where it is.
    func carryOut(_ effects: [CanvasEffect]) {
        for effect in effects {
            switch effect {
            case .startRecording: startCanvasRecording()
            case .cancelRecording(let job):
                say("canvas: stopping recording \(job)")
                link.cancel(job: job) { reply in
                    if case .failed(let failure) = reply { say("the recording's cancel: \(failure.message)") }
                }
            case .save(let name): saveCanvasGesture(as: name)
            case .review: startReview()
            case .close:
                closeCanvas()
                return
            }
        }
        showCanvas()
    }

    private func startCanvasRecording() {
        guard let canvasView else { return }
        stopReview()
        canvasView.recording += 1
        canvasView.touches = [:]
        canvasView.lifted = []
        let recording = canvasView.recording
        say("canvas: asking the daemon to record" + (settings.device.map { " from \(shown($0))" } ?? ""))
        link.record(device: settings.device) { [self, weak canvasView] reply in
            // A reply for an earlier recording (before a Redo, or of a canvas since closed) only cancels it.
            guard let canvasView, canvasView === self.canvasView, canvasView.recording == recording else {
                if case .recordStarted(let job, _, _) = reply {
                    link.cancel(job: job) { _ in }
                }
                return
            }
            switch reply {
            case .recordStarted(let job, let device, let area):
                canvasView.area = area
                say("canvas: recording \(job) from \(shown(device))")
                carryOut(canvas.recordingStarted(job: job, device: device))
            case .stroke(let stroke):
                if canvas.stroke(stroke) {
                    if !canvasView.lifted.isEmpty { canvasView.lifted.removeFirst() }
                    say("canvas: stroke \(canvas.strokes.count) drawn")
                    showCanvas()
                }
            case .recordEnded(let ending):
                if case .recorded(let gesture, _, _, _) = ending { canvasView.area = CanvasArea.gesture(gesture.device) }
                canvas.recordingEnded(ending)
                say("canvas: \(canvas.status)")
                if canvas.state == .recorded { say("canvas: suggested name \(shown(canvas.name))") }
                showCanvas()
            case .failed(let failure):
                if failure.unreachable { daemonMissing = failure.message }
                canvas.recordingEnded(.failed(failure.message + (failure.unreachable ? "; \(ButtonMenu.startHint)" : "")))
                say("canvas: \(canvas.status)")
                showCanvas()
            default:
                break
            }
        }
    }

    private func saveCanvasGesture(as name: String) {
        guard let gesture = canvas.gesture else { return }
        say("canvas: saving as \(shown(name))")
        link.save(gesture, as: name) { [self] reply in
            switch reply {
            case .saved(let name):
                savedGestureNames.append(name)
                canvas.saved(name)
                say("canvas: saved as \(shown(name))")
            case .failed(let failure):
                canvas.saveFailed(failure.message)
                say("canvas: not saved: \(failure.message)")
            default:
                break
            }
            if canvasView != nil { showCanvas() }
        }
    }

    /// Shows the flow: the status, the name entry, the problem, the buttons
    /// (rebuilt when they change, the default one focused), the drawing.
    func showCanvas() {
        guard let canvasView else { return }
        gtk_label_set_text(cast(canvasView.status), canvas.status)
        if let accessible = gtk_widget_get_accessible(canvasView.status) { atk_object_set_name(accessible, canvas.status) }
        let problem = [canvas.problem, canvas.showsNameEntry ? canvas.note : nil].compactMap { $0 }.joined(separator: " ")
        gtk_label_set_text(cast(canvasView.problem), problem)
        if problem.isEmpty { gtk_widget_hide(canvasView.problem) } else { gtk_widget_show(canvasView.problem) }
        if canvas.showsNameEntry {
            let wasHidden = gtk_widget_get_visible(canvasView.nameRow) == 0
            gtk_widget_show_all(canvasView.nameRow)
            gtk_widget_set_sensitive(canvasView.entry, canvas.state == .recorded ? 1 : 0)
            if wasHidden {
                canvasView.settingName = true
                gtk_entry_set_text(cast(canvasView.entry), canvas.name)
                canvasView.settingName = false
            }
        } else {
            gtk_widget_hide(canvasView.nameRow)
        }
        let buttons = canvas.buttons
        if buttons.map(\.control) != canvasView.controls {
            destroyChildren(of: canvasView.buttonRow)
            canvasView.controls = buttons.map(\.control)
            var focus: UnsafeMutablePointer<GtkWidget>?
            for (index, each) in buttons.enumerated() {
                let widget = makeCanvasButton(each, index: index)
                gtk_box_pack_start(cast(canvasView.buttonRow), widget, 0, 0, 0)
                if each.isDefault { focus = widget }
            }
            gtk_widget_show_all(canvasView.buttonRow)
            if let focus {
                gtk_widget_grab_default(focus)
                // Recorded: the name entry has the focus (Return in it is Save).
                if canvas.state == .recorded { gtk_widget_grab_focus(canvasView.entry) } else { gtk_widget_grab_focus(focus) }
            }
        }
        gtk_widget_queue_draw(canvasView.drawing)
    }

    private func makeCanvasButton(_ each: CanvasFlow.Button, index: Int) -> UnsafeMutablePointer<GtkWidget> {
        let widget = gtk_button_new_with_label(each.label)!
        gtk_widget_set_tooltip_text(widget, each.description)
        if let accessible = gtk_widget_get_accessible(widget) {
            atk_object_set_name(accessible, each.label)
            atk_object_set_description(accessible, each.description)
        }
        let style = gtk_widget_get_style_context(widget)
        if each.isDefault {
            gtk_style_context_add_class(style, "suggested-action")
            gtk_widget_set_can_default(widget, 1)
        }
        if each.isDestructive { gtk_style_context_add_class(style, "destructive-action") }
        g_object_set_data(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), actionKey,
            UnsafeMutableRawPointer(bitPattern: index + 1))
        connect(widget, "clicked", unsafeBitCast(onCanvasButton, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque())
        return widget
    }

    /// A control was pressed.
    func canvasPressed(_ index: Int) {
        guard let canvasView, canvasView.controls.indices.contains(index) else { return }
        let control = canvasView.controls[index]
        say("canvas: \(control.rawValue)")
        carryOut(canvas.press(control))
    }

    /// Escape on the canvas.
    func canvasEscape() {
        say("canvas: escape")
        carryOut(canvas.escape())
    }

    func canvasNameChanged() {
        guard let canvasView, !canvasView.settingName, let text = gtk_entry_get_text(cast(canvasView.entry)) else { return }
        canvas.nameChanged(String(cString: text))
        showCanvas()
    }

    /// Takes the canvas away.
    func closeCanvas() {
        guard let canvasView else { return }
        stopReview()
        gtk_widget_destroy(canvasView.window)
        self.canvasView = nil
        if customizeWindow.map({ gtk_widget_get_visible($0) == 0 }) ?? true, placingWindows.isEmpty { buttonTakesKeyboard(true) }
        say("canvas closed")
    }

    // MARK: Review: the strokes played on the canvas in their own time

    private func startReview() {
        guard let canvasView else { return }
        stopReview()
        canvasView.reviewStart = monotonicNow()
        canvasView.reviewTimer = g_timeout_add(16, onReviewTick, Unmanaged.passUnretained(self).toOpaque())
        say("canvas: review, \(DecimalText.shortest(Double(CanvasReview.duration(of: canvas.strokes) / 1000) / 1000)) s")
    }

    private func stopReview() {
        guard let canvasView else { return }
        if canvasView.reviewTimer != 0 { g_source_remove(canvasView.reviewTimer) }
        canvasView.reviewTimer = 0
        canvasView.reviewStart = nil
    }

    /// A frame of the review: false once it is over.
    func reviewTick() -> Bool {
        guard let canvasView, let start = canvasView.reviewStart else { return false }
        if monotonicNow() - start > CanvasReview.duration(of: canvas.strokes) {
            canvasView.reviewTimer = 0
            canvasView.reviewStart = nil
            gtk_widget_queue_draw(canvasView.drawing)
            return false
        }
        gtk_widget_queue_draw(canvasView.drawing)
        return true
    }

    // MARK: drawing

    /// A touch on the canvas: while recording from a touchscreen (whose
    /// strokes land where the fingers are), each finger's path is traced as
    /// it moves; the daemon's stroke replaces it when the finger lifts.
    func canvasTouch(_ type: GdkEventType, sequence: UInt, x: Double, y: Double) {
        guard let canvasView else { return }
        switch type {
        case GDK_TOUCH_BEGIN where canvas.takesStrokes && canvasView.area.fillsCanvas:
            canvasView.touches[sequence] = [(x, y)]
        case GDK_TOUCH_UPDATE where canvasView.touches[sequence] != nil:
            canvasView.touches[sequence]?.append((x, y))
        case GDK_TOUCH_END, GDK_TOUCH_CANCEL:
            if let trace = canvasView.touches.removeValue(forKey: sequence), type == GDK_TOUCH_END { canvasView.lifted.append(trace) }
        default:
            return
        }
        gtk_widget_queue_draw(canvasView.drawing)
    }

    /// The strokes (during Review, as far as its time has come), each
    /// numbered at its start; the device's surface outlined when it is not
    /// the screen.
    func drawCanvas(_ cr: OpaquePointer, width: Double, height: Double) {
        guard let canvasView else { return }
        cairo_set_source_rgba(cr, 0.07, 0.08, 0.1, 0.94)
        cairo_paint(cr)
        let area = canvasView.area
        if !area.fillsCanvas, canvas.takesStrokes || !canvas.strokes.isEmpty {
            let box = area.fitted(width: width, height: height)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.35)
            cairo_set_line_width(cr, 2)
            let dashes: [Double] = [8, 6]
            cairo_set_dash(cr, dashes, 2, 0)
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
        }
        if canvas.takesStrokes {
            cairo_set_source_rgba(cr, 1, 1, 1, 0.6)
            cairo_set_line_width(cr, 2)
            for trace in canvasView.lifted + Array(canvasView.touches.values) where !trace.isEmpty {
                cairo_move_to(cr, trace[0].x, trace[0].y)
                for point in trace.dropFirst() { cairo_line_to(cr, point.x, point.y) }
                cairo_stroke(cr)
            }
        }
        let strokes = canvas.strokes
        var visible = strokes.map(\.points.count)
        if let start = canvasView.reviewStart {
            visible = CanvasReview.visiblePoints(of: strokes, at: monotonicNow() - start)
        }
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for (number, stroke) in strokes.enumerated() where visible[number] > 0 {
            let points = stroke.points.prefix(visible[number]).map { area.point(x: $0.x, y: $0.y, width: width, height: height) }
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
            cairo_set_line_width(cr, 5)
            cairo_move_to(cr, points[0].x, points[0].y)
            for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
            if points.count == 1 { cairo_line_to(cr, points[0].x + 0.1, points[0].y) }
            cairo_stroke(cr)
            // Where it starts: a ring with its number (a shape and a word, not a colour).
            cairo_arc(cr, points[0].x, points[0].y, 14, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.95)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 1)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
            cairo_set_font_size(cr, 15)
            var extents = cairo_text_extents_t()
            let label = "\(number + 1)"
            cairo_text_extents(cr, label, &extents)
            cairo_move_to(cr, points[0].x - extents.width / 2 - extents.x_bearing, points[0].y - extents.height / 2 - extents.y_bearing)
            cairo_show_text(cr, label)
            if canvasView.reviewStart != nil, visible[number] < stroke.points.count, let last = points.last {
                // The finger, as it moves in the review.
                cairo_arc(cr, last.x, last.y, 10, 0, 2 * Double.pi)
                cairo_set_source_rgba(cr, 1, 1, 1, 1)
                cairo_fill(cr)
            }
        }
    }

    private func installCanvasStyle() {
        let css = """
            window.gesturectl-canvas { background: transparent; }
            box.gesturectl-canvas-panel { background: rgba(30, 30, 30, 0.96); color: white; padding: 16px 20px; border-radius: 10px; border: 1px solid #8a8a8a; }
            box.gesturectl-canvas-panel button { min-height: 48px; min-width: 96px; padding: 0 16px; }
            label.gesturectl-canvas-title { font-size: 18px; font-weight: bold; }
            label.gesturectl-canvas-problem { font-weight: bold; }
            """
        let provider = gtk_css_provider_new()
        _ = gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(
            gtk_widget_get_screen(window), OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}

private let onCanvasDraw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> gboolean = { widget, cr, data in
    guard let widget, let cr else { return 0 }
    let drawing = widget.assumingMemoryBound(to: GtkWidget.self)
    view(data).drawCanvas(
        cr, width: Double(gtk_widget_get_allocated_width(drawing)), height: Double(gtk_widget_get_allocated_height(drawing)))
    return 1
}

private let onCanvasTouch: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    let touch = event.assumingMemoryBound(to: GdkEventTouch.self).pointee
    view(data).canvasTouch(touch.type, sequence: UInt(bitPattern: touch.sequence), x: touch.x, y: touch.y)
    return 1
}

private let onCanvasButton: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { widget, data in
    guard let widget else { return }
    view(data).canvasPressed(Int(bitPattern: g_object_get_data(widget.assumingMemoryBound(to: GObject.self), actionKey)) - 1)
}

private let onCanvasNameChanged: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { _, data in
    view(data).canvasNameChanged()
}

private let onCanvasKey: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event, event.pointee.keyval == guint(GDK_KEY_Escape) else { return 0 }
    view(data).canvasEscape()
    return 1
}

/// The window manager's close (X11, or a window without layer shell): Escape.
private let onCanvasDelete: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> gboolean = { _, _, data in
    view(data).canvasEscape()
    return 1
}

private let onReviewTick: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).reviewTick() ? 1 : 0
}
