import ButtonModel
import CGtk
import OperatingSystem

/// "Customize Top Level Menu" on screen: ButtonModel's ``MenuCustomizer``
/// as a small panel above every window (a layer-shell overlay that takes
/// the keyboard while it shows; a keep-above dialog elsewhere). Each item
/// is a row with Up, Down and Remove; under them Add an item (which offers
/// a button for each item that may be added), Reset… and Done; Reset asks
/// first, its default the non-destructive "Keep my menu".
/// Every control is a GtkButton named for screen readers, at least 48 px
/// (the style sheet), reached with Tab and the arrows, pressed with Return
/// or Space; Escape closes the question, then the panel. The panel is
/// rebuilt from the model after each press; the model writes `menu.json`.
extension ButtonWindow {
    /// Opens the panel on the user's `menu.json` as it is now.
    func openCustomize() {
        customizer = MenuCustomizer.load(path: MenuCustomizer.path(environment: ProcessEnvironment.variables()))
        customizer?.savedGestures = savedGestureNames
        if customizeWindow == nil { makeCustomizeWindow() }
        guard let customizeWindow, let customizer else { return }
        buttonTakesKeyboard(false)
        // A note beside the button would cover the panel's rows.
        if noteTimer != 0 { g_source_remove(noteTimer) }
        hideNote()
        showCustomizer(focus: customizer.initialFocus)
        gtk_widget_show_all(customizeWindow)
        gtk_window_present(cast(customizeWindow))
        focusCustomizeControl(customizer.initialFocus)
        say("customize open: \(customizer.status)")
    }

    /// Hides the panel (it is made again from the file when next opened).
    func closeCustomize() {
        if let customizeWindow { gtk_widget_hide(customizeWindow) }
        if placingWindows.isEmpty { buttonTakesKeyboard(true) }
        say("customize closed")
    }

    private func makeCustomizeWindow() {
        let surface = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let gtkWindow: UnsafeMutablePointer<GtkWindow> = cast(surface)
        gtk_window_set_title(gtkWindow, MenuCustomizer.title)
        gtk_window_set_resizable(gtkWindow, 0)
        gtk_style_context_add_class(gtk_widget_get_style_context(surface), "gesturectl-customize")
        switch mode {
        case .layerShell:
            // Anchored to the top only: centred across the button's monitor,
            // 48 px down, so that its rows stay put as it grows and shrinks.
            gtk_layer_init_for_window(gtkWindow)
            gtk_layer_set_anchor(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 1)
            gtk_layer_set_margin(gtkWindow, GTK_LAYER_SHELL_EDGE_TOP, 48)
            gtk_layer_set_layer(gtkWindow, GTK_LAYER_SHELL_LAYER_OVERLAY)
            gtk_layer_set_namespace(gtkWindow, "gesturectl-customize")
            gtk_layer_set_keyboard_mode(gtkWindow, GTK_LAYER_SHELL_KEYBOARD_MODE_EXCLUSIVE)
            let display = gdk_display_get_default()
            if let monitor = gdk_display_get_monitor(display, Int32(buttonMonitor)) { gtk_layer_set_monitor(gtkWindow, monitor) }
        case .x11KeepAbove, .ordinary:
            gtk_window_set_keep_above(gtkWindow, 1)
            gtk_window_set_type_hint(gtkWindow, GDK_WINDOW_TYPE_HINT_DIALOG)
            gtk_window_set_position(gtkWindow, GTK_WIN_POS_CENTER)
        }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
        gtk_container_set_border_width(cast(box), 16)
        gtk_container_add(cast(surface), box)
        let me = Unmanaged.passUnretained(self).toOpaque()
        connect(surface, "key-press-event", unsafeBitCast(onCustomizeKey, to: GCallback.self), me)
        connect(surface, "delete-event", unsafeBitCast(onCustomizeDelete, to: GCallback.self), me)
        if let accessible = gtk_widget_get_accessible(surface) { atk_object_set_name(accessible, MenuCustomizer.title) }
        customizeWindow = surface
        customizeBox = box
    }

    /// Fills the panel from the model: title, status, the rows, the footer.
    private func showCustomizer(focus: MenuCustomizer.Control?) {
        guard let box = customizeBox, let customizer else { return }
        destroyChildren(of: box)
        customizeControls = []
        customizeWidgets = [:]

        let title = gtk_label_new(MenuCustomizer.title)!
        gtk_style_context_add_class(gtk_widget_get_style_context(title), "gesturectl-customize-title")
        gtk_widget_set_halign(title, GTK_ALIGN_START)
        gtk_box_pack_start(cast(box), title, 0, 0, 0)
        let status = gtk_label_new(customizer.status)!
        gtk_label_set_line_wrap(cast(status), 1)
        gtk_label_set_max_width_chars(cast(status), 44)
        gtk_widget_set_halign(status, GTK_ALIGN_START)
        gtk_box_pack_start(cast(box), status, 0, 0, 0)

        let rows = customizer.rows
        if !rows.isEmpty {
            let grid = gtk_grid_new()!
            gtk_grid_set_row_spacing(cast(grid), 4)
            gtk_grid_set_column_spacing(cast(grid), 6)
            for (index, row) in rows.enumerated() {
                let label = gtk_label_new("\(index + 1). \(row.label)")!
                gtk_label_set_xalign(cast(label), 0)
                gtk_widget_set_hexpand(label, 1)
                gtk_widget_set_size_request(label, 200, -1)
                gtk_grid_attach(cast(grid), label, 0, Int32(index), 1, 1)
                for (column, each) in row.buttons.enumerated() {
                    gtk_grid_attach(cast(grid), makeCustomizeControl(each), Int32(column + 1), Int32(index), 1, 1)
                }
            }
            gtk_box_pack_start(cast(box), grid, 0, 0, 0)
        }

        let offered = customizer.additionButtons
        if !offered.isEmpty {
            // Three a row, scrolled beyond 6 rows: a long library stays on the screen.
            let grid = gtk_grid_new()!
            gtk_grid_set_row_spacing(cast(grid), 4)
            gtk_grid_set_column_spacing(cast(grid), 6)
            gtk_grid_set_column_homogeneous(cast(grid), 1)
            for (index, each) in offered.enumerated() {
                gtk_grid_attach(cast(grid), makeCustomizeControl(each), Int32(index % 3), Int32(index / 3), 1, 1)
            }
            let scrolled = gtk_scrolled_window_new(nil, nil)!
            gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_propagate_natural_height(cast(scrolled), 1)
            gtk_scrolled_window_set_max_content_height(cast(scrolled), 6 * 52)
            gtk_container_add(cast(scrolled), grid)
            gtk_box_pack_start(cast(box), scrolled, 0, 0, 0)
        }

        let footer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        for each in customizer.footer {
            gtk_box_pack_start(cast(footer), makeCustomizeControl(each), 0, 0, 0)
        }
        gtk_widget_set_margin_top(footer, 8)
        gtk_box_pack_start(cast(box), footer, 0, 0, 0)
        gtk_widget_show_all(box)
        if let focus { focusCustomizeControl(focus) }
    }

    /// One control: a GtkButton with the model's label, accessible name
    /// and description; the primary role is the window's default (Return).
    private func makeCustomizeControl(_ control: MenuCustomizer.Button) -> UnsafeMutablePointer<GtkWidget> {
        let widget = gtk_button_new_with_label(control.label)!
        gtk_widget_set_sensitive(widget, control.enabled ? 1 : 0)
        gtk_widget_set_tooltip_text(widget, control.description)
        if let accessible = gtk_widget_get_accessible(widget) {
            atk_object_set_name(accessible, control.name)
            atk_object_set_description(accessible, control.description)
        }
        let style = gtk_widget_get_style_context(widget)
        switch control.role {
        case .primary:
            gtk_style_context_add_class(style, "suggested-action")
            gtk_widget_set_can_default(widget, 1)
        case .destructive:
            gtk_style_context_add_class(style, "destructive-action")
        case .normal:
            break
        }
        customizeControls.append(control.control)
        customizeWidgets[control.control] = widget
        g_object_set_data(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), actionKey,
            UnsafeMutableRawPointer(bitPattern: customizeControls.count))
        connect(widget, "clicked", unsafeBitCast(onCustomizeControl, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque())
        return widget
    }

    /// Gives `control` the keyboard's focus (and makes a primary one the
    /// default); the first control that can take it when `control` cannot.
    private func focusCustomizeControl(_ control: MenuCustomizer.Control) {
        guard let widget = customizeWidgets[control], gtk_widget_get_sensitive(widget) != 0 else {
            if let first = customizeControls.lazy.compactMap({ self.customizeWidgets[$0] }).first(where: { gtk_widget_get_sensitive($0) != 0 }) {
                gtk_widget_grab_focus(first)
            }
            return
        }
        gtk_widget_grab_focus(widget)
        if gtk_widget_get_can_default(widget) != 0 { gtk_widget_grab_default(widget) }
    }

    /// A control was pressed.
    func customizePressed(_ index: Int) {
        guard customizeControls.indices.contains(index), customizer != nil else { return }
        let control = customizeControls[index]
        var said = "\(control)"
        if case .addition(let chosen) = control, let offered = customizer?.additions, offered.indices.contains(chosen) {
            said = "add \(offered[chosen].label)"
        }
        guard let result = customizer?.press(control) else { return }
        say("customize: \(said)")
        carryOut(result.effect, focus: result.focus)
    }

    /// Escape in the panel.
    func customizeEscape() {
        guard let result = customizer?.escape() else { return }
        carryOut(result.effect, focus: result.focus)
    }

    private func carryOut(_ effect: MenuCustomizer.Effect, focus: MenuCustomizer.Control?) {
        switch effect {
        case .close:
            closeCustomize()
            return
        case .write, .reset:
            let path = MenuCustomizer.path(environment: ProcessEnvironment.variables())
            if let line = customizer?.store(effect, path: path) { say(line) }
        case .none:
            break
        }
        showCustomizer(focus: focus)
    }
}

/// Destroys every child of a container.
func destroyChildren(of container: UnsafeMutablePointer<GtkWidget>) {
    let children = gtk_container_get_children(cast(container))
    var node = children
    while let each = node {
        if let child = each.pointee.data { gtk_widget_destroy(child.assumingMemoryBound(to: GtkWidget.self)) }
        node = each.pointee.next
    }
    g_list_free(children)
}

private func carriedIndex(_ widget: UnsafeMutableRawPointer?) -> Int {
    guard let widget else { return -1 }
    return Int(bitPattern: g_object_get_data(widget.assumingMemoryBound(to: GObject.self), actionKey)) - 1
}

private let onCustomizeControl: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { widget, data in
    guard let widget else { return }
    view(data).customizePressed(carriedIndex(widget))
}

private let onCustomizeKey: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event, event.pointee.keyval == guint(GDK_KEY_Escape) else { return 0 }
    view(data).customizeEscape()
    return 1
}

/// The window manager's close (X11, or a window without layer shell): hidden, as Done.
private let onCustomizeDelete: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, gpointer?) -> gboolean = { _, _, data in
    view(data).closeCustomize()
    return 1
}
