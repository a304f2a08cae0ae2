import ButtonModel
import CGtk
import GestureModel
import OperatingSystem

/// The menu: ButtonModel's ``ButtonMenu`` (menu.json's items) as GTK menu
/// items, each with its label as its accessible name and its description as
/// its tooltip and accessible description, each at least 48 px tall (the
/// style sheet). What an item does is found by the index it carries.
extension ButtonWindow {
    /// The menu for this tap: menu.json's top level, under the lines saying
    /// the daemon is missing when it was the last time it was asked.
    func makeMenu() -> UnsafeMutablePointer<GtkWidget> {
        menuActions = []
        savedGesturesMenu = nil
        missingItems = []
        let (items, problem) = ButtonMenu.load(environment: ProcessEnvironment.variables())
        if let problem { say(problem) }
        let menu = makeShell(items)
        if let daemonMissing { showMissing(daemonMissing, in: menu) }
        gtk_menu_attach_to_widget(cast(menu), button, nil)
        connect(menu, "deactivate", unsafeBitCast(onMenuDeactivate, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque())
        return menu
    }

    /// A GtkMenu of `items`.
    func makeShell(_ items: [ButtonMenuItem]) -> UnsafeMutablePointer<GtkWidget> {
        let shell = gtk_menu_new()!
        gtk_style_context_add_class(gtk_widget_get_style_context(shell), "gesturectl-menu")
        for item in items { gtk_menu_shell_append(cast(shell), makeItem(item)) }
        return shell
    }

    /// One GtkMenuItem.
    func makeItem(_ item: ButtonMenuItem) -> UnsafeMutablePointer<GtkWidget> {
        let widget = gtk_menu_item_new_with_label(item.label)!
        // A message's description is the message itself: a tooltip would
        // cover the menu's other items with it.
        if case .message = item.action {} else { gtk_widget_set_tooltip_text(widget, item.description) }
        if let accessible = gtk_widget_get_accessible(widget) {
            atk_object_set_name(accessible, item.label)
            atk_object_set_description(accessible, item.description)
        }
        switch item.action {
        case .submenu(let items):
            gtk_menu_item_set_submenu(cast(widget), makeShell(items))
        case .savedGestures:
            let shell = makeShell(
                daemonMissing.map { ButtonMenu.daemonMissingItems(reason: $0) } ?? [ButtonMenu.loadingItem])
            savedGesturesMenu = shell
            gtk_menu_item_set_submenu(cast(widget), shell)
        default:
            menuActions.append(item.action)
            g_object_set_data(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), actionKey,
                UnsafeMutableRawPointer(bitPattern: menuActions.count))
            connect(widget, "activate", unsafeBitCast(onMenuItem, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque())
        }
        return widget
    }

    /// Puts the lines saying the daemon is missing at the top of `menu`.
    func showMissing(_ reason: String, in menu: UnsafeMutablePointer<GtkWidget>) {
        guard missingItems.isEmpty else { return }
        for item in ButtonMenu.daemonMissingItems(reason: reason).reversed() {
            let widget = makeItem(item)
            gtk_menu_shell_prepend(cast(menu), widget)
            gtk_widget_show(widget)
            missingItems.insert(widget, at: 0)
        }
    }

    /// Sets the Saved gestures sub-menu's items.
    func fillSavedGestures(_ items: [ButtonMenuItem]) {
        guard let shell = savedGesturesMenu else { return }
        destroyChildren(of: shell)
        for item in items { gtk_menu_shell_append(cast(shell), makeItem(item)) }
        gtk_widget_show_all(shell)
        // A switch scanning this sub-menu scans its new items.
        if scanShells.last == shell { rescan(shell) }
    }

    /// Asks the daemon for its library (and so whether it is there): each
    /// time the menu opens, so that a daemon started since is found.
    func refreshSavedGestures() {
        link.list { [self] reply in
            switch reply {
            case .list(let gestures):
                if daemonMissing != nil { say("the daemon answers at \(link.path)") }
                say("saved gestures: \(gestures.count) listed")
                daemonMissing = nil
                watchSwitch()
                savedGestureNames = gestures.map(\.name)
                gestureSummaries = Dictionary(gestures.map { ($0.name, $0.summary) }, uniquingKeysWith: { first, _ in first })
                for widget in missingItems { gtk_widget_destroy(widget) }
                missingItems = []
                fillSavedGestures(ButtonMenu.savedGestureItems(gestures))
            case .failed(let failure) where failure.unreachable:
                if daemonMissing == nil { say("no daemon: \(failure.message); \(ButtonMenu.startHint)") }
                daemonMissing = failure.message
                if let menu { showMissing(failure.message, in: menu) }
                fillSavedGestures(ButtonMenu.daemonMissingItems(reason: failure.message))
            case .failed(let failure):
                let text = "The daemon could not list the saved gestures: \(failure.message)"
                fillSavedGestures([ButtonMenuItem(label: "Saved gestures are not available", description: text, action: .message(text))])
            default:
                break
            }
        }
    }

    /// At start: whether the daemon answers, said once on standard error.
    func checkDaemon() {
        link.version { [self] reply in
            switch reply {
            case .version(let version): say("daemon \(version) at \(link.path)")
            case .failed(let failure) where failure.unreachable:
                daemonMissing = failure.message
                say("no daemon: \(failure.message); \(ButtonMenu.startHint)")
            case .failed(let failure): say("the daemon at \(link.path) answered with an error: \(failure.message)")
            default: break
            }
        }
    }

    /// A tap, double tap or long press's own action (AssistiveTouch's Custom Actions).
    func perform(_ action: ButtonAction, for gesture: ButtonGesture) {
        say("\(gesture.rawValue): \(DisplayText.escaped(action.description))")
        switch action {
        case .menu:
            tapped(gesture: gesture)
        case .press(let key):
            press(key, force: false)
        case .play(let name):
            startPlacing(name)
        case .create:
            openCanvas()
        case .fingertips(let count):
            startFingertips(count)
        case .none:
            break
        }
    }

    /// Presses `key` through the daemon; a failure is shown beside the button.
    func press(_ key: String, force: Bool) {
        say("pressing \(key)")
        link.press(key: key, force: force) { [self] reply in
            if case .failed(let failure) = reply {
                if failure.unreachable { daemonMissing = failure.message }
                note("Could not press \(key): \(failure.message)" + (failure.unreachable ? "; \(ButtonMenu.startHint)" : ""))
            } else {
                say("pressed \(key)")
            }
        }
    }

    /// An item was chosen.
    func chose(_ index: Int) {
        guard menuActions.indices.contains(index) else { return }
        switch menuActions[index] {
        case .press(let key, let force):
            press(key, force: force)
        case .place(let gesture):
            startPlacing(gesture)
        case .notAvailable(let text), .message(let text):
            note(text)
        case .hide:
            gtk_main_quit()
        case .customize:
            openCustomize()
        case .create:
            openCanvas()
        case .fingertips(let count):
            startFingertips(count)
        case .close, .submenu, .savedGestures:
            break
        }
    }

    /// The button was tapped (its action is the menu): the menu, or what a
    /// tap means while placing or playing.
    func tapped(gesture: ButtonGesture) {
        if fingertipsTapped() { return }
        switch flow.tap() {
        case .openMenu:
            openMenu(gesture: gesture)
            return
        case .cancelPlacement:
            closePlacing()
            say("placing cancelled")
        case .cancel(let job):
            say("stopping job \(job)")
            cancelJob(job)
        case .nothing:
            break
        }
        updateBusy()
        // No menu was opened: the model's menu is closed again.
        handle(.menuClosed(at: monotonicNow()))
    }
}

/// The key under which a menu item carries its action's index (plus one).
let actionKey = "gesturectl-action"

private let onMenuItem: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> Void = { widget, data in
    guard let widget else { return }
    let index = Int(bitPattern: g_object_get_data(widget.assumingMemoryBound(to: GObject.self), actionKey)) - 1
    view(data).chose(index)
}
