import ButtonModel
import CGtk
import GestureModel
import OperatingSystem

/// While a saved gesture waits to be placed, its fingers are drawn at the
/// pointer as circles (ButtonModel's ``ButtonModel/PlacingPreview``: where
/// each first touches, laid out as the play will lay them), with its
/// spoken description beside them. The gesture comes from the daemon's
/// `show`; until it has come, or if it cannot, the layer shows its text
/// alone. Pointer motion only redraws; nothing runs while the pointer rests.
extension ButtonWindow {
    /// Asks the daemon for the gesture, to draw its fingers.
    func showPreview(of gesture: String) {
        link.show(gesture) { [self] reply in
            guard flow.isPlacing, flow.gesture == gesture else { return }
            switch reply {
            case .shown(let shape):
                let summary = gestureSummaries[gesture].flatMap { $0.isEmpty ? nil : $0 } ?? gesture
                placingPreview = PlacingPreview(shape, label: DisplayText.escaped(summary))
                if let preview = placingPreview {
                    say("placing preview: \(preview.fingers.count) finger(s), \(preview.label)")
                    for surface in placingWindows {
                        if let accessible = gtk_widget_get_accessible(surface) {
                            atk_object_set_description(accessible, "Where it will play: \(preview.label)")
                        }
                        gtk_widget_queue_draw(surface)
                    }
                }
            case .failed(let failure):
                say("no preview of \(shown(gesture)): \(failure.message)")
            default:
                break
            }
        }
    }

    /// The pointer moved over monitor `index`'s placing surface.
    func placingMotion(monitor index: Int, local: (Double, Double), root: (Double, Double)) {
        guard monitors.indices.contains(index) else { return }
        let frame = monitors[index]
        let point =
            mode == .layerShell ? ScreenPoint(x: local.0, y: local.1) : ScreenPoint(x: root.0 - frame.x, y: root.1 - frame.y)
        let previous = placingPointer?.monitor
        placingPointer = (index, point)
        guard placingPreview != nil else { return }
        for surface in placingWindows where [index, previous].contains(monitorIndex(UnsafeMutableRawPointer(surface))) {
            gtk_widget_queue_draw(surface)
        }
    }

    /// The pointer left a placing surface: no circles there.
    func placingLeft(monitor index: Int) {
        guard placingPointer?.monitor == index else { return }
        placingPointer = nil
        for surface in placingWindows { gtk_widget_queue_draw(surface) }
    }

    /// Draws the circles and the label on monitor `index`'s surface.
    func drawPreview(_ cr: OpaquePointer, monitor index: Int) {
        guard let preview = placingPreview, let pointer = placingPointer, pointer.monitor == index,
            monitors.indices.contains(index)
        else { return }
        let frame = monitors[index]
        var scale = PlacingPreview.assumedPixelsPerMillimetre
        if let display = gdk_display_get_default(), let monitor = gdk_display_get_monitor(display, Int32(index)) {
            scale = PlacingPreview.pixelsPerMillimetre(
                widthPixels: frame.width, widthMillimetres: Double(gdk_monitor_get_width_mm(monitor)))
        }
        let radius = max(16, 7 * scale)  // a fingertip, about 14 mm across
        let centres = preview.centres(at: pointer.point, pixelsPerMillimetre: scale)
        cairo_set_line_width(cr, 3)
        for (number, centre) in centres.enumerated() {
            cairo_new_path(cr)
            cairo_arc(cr, centre.x, centre.y, radius, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.6)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.95)
            cairo_stroke(cr)
            // Numbered in the order they touch: not told by colour alone.
            let text = "\(number + 1)"
            cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(cr, max(14, radius * 0.9))
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text, &extents)
            cairo_move_to(cr, centre.x - extents.width / 2 - extents.x_bearing, centre.y - extents.height / 2 - extents.y_bearing)
            cairo_show_text(cr, text)
        }
        // The description, in a dark box under the lowest circle.
        let bottom = (centres.map(\.y).max() ?? pointer.point.y) + radius + 14
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 18)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, preview.label, &extents)
        let padding = 10.0
        let width = extents.x_advance + 2 * padding
        let height = 18 + 2 * padding
        let left = min(max(4, pointer.point.x - width / 2), frame.width - width - 4)
        let top = min(bottom, frame.height - height - 4)
        cairo_new_path(cr)
        cairo_rectangle(cr, left, top, width, height)
        cairo_set_source_rgba(cr, 0.08, 0.08, 0.08, 0.9)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_move_to(cr, left + padding, top + padding + 18 - 4)
        cairo_show_text(cr, preview.label)
    }
}

let onPlacingMotion: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventMotion>?, gpointer?) -> gboolean = {
    widget, event, data in
    guard let event else { return 0 }
    let e = event.pointee
    view(data).placingMotion(monitor: monitorIndex(widget), local: (e.x, e.y), root: (e.x_root, e.y_root))
    return 1
}

let onPlacingLeave: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventCrossing>?, gpointer?) -> gboolean = {
    widget, _, data in
    view(data).placingLeft(monitor: monitorIndex(widget))
    return 0
}

let onPlacingDraw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, gpointer?) -> gboolean = { widget, cr, data in
    if let cr { view(data).drawPreview(cr, monitor: monitorIndex(widget)) }
    return 0
}
