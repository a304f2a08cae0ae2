import ButtonModel
import CGtk
import GestureModel
import GestureProtocol
import OperatingSystem

/// One switch: a daemon binding `{"screen-menu": {}}` sends each press of
/// its trigger as a `screen-menu` event, and the button scans its own menu
/// with them (ButtonModel's ``ButtonModel/MenuScan``): the highlight moves
/// through the GtkMenu's items by itself, a press picks, a long press goes
/// back, the emergency stop closes everything. The highlighted item is the
/// menu's selected item, drawn with a thick frame as well as its colour.
///
/// While a gesture waits to be placed, a press places it at the centre of
/// the button's monitor (a switch has no pointer) and a long press cancels;
/// while one plays (or live fingertips run), a press stops it, as a tap on
/// the button does.
extension ButtonWindow {
    /// Subscribes to `screen-menu` events. At start, and again after any
    /// request the daemon answered while no subscription stands: a daemon
    /// that is missing is not polled (nothing wakes the button while idle).
    /// A subscription that breaks (the daemon restarted) is tried again
    /// after 1, 2, 4, 8 and 16 s.
    func watchSwitch() {
        guard !switchWatched else { return }
        switchWatched = true
        link.subscribe([.screenMenu]) { [self] reply in
            switch reply {
            case .subscribed:
                if switchRetries > 0 { say("listening again for the on-screen menu's switch") }
                switchRetries = 0
                switchConnected = true
            case .event(let json):
                do throws(DaemonError) {
                    if let event = try ScreenMenuEvent(json) { switchPressed(event) }
                } catch {
                    say("a screen-menu event the button cannot read: \(error.message)")
                }
            case .failed(let failure):
                switchWatched = false
                let wasConnected = switchConnected
                switchConnected = false
                guard wasConnected || switchRetries > 0, switchRetries < 5 else { return }
                if wasConnected { say("the daemon's events stopped: \(failure.message); trying again") }
                let delay = guint(1) << guint(switchRetries)
                switchRetries += 1
                _ = g_timeout_add_seconds(delay, onSwitchRetry, Unmanaged.passUnretained(self).toOpaque())
            default:
                break
            }
        }
    }

    /// A press of the switch, from the daemon.
    func switchPressed(_ event: ScreenMenuEvent) {
        guard let press = MenuScan.Press(event: event.press) else { return }
        say("switch: \(DisplayText.escaped(event.press)) press")
        let now = scanNow()
        if !scan.isActive {
            // What a press means outside the menu: stop, cancel or place.
            if isBusy {
                if press != .back { tapped(gesture: .singleTap) }
                return
            }
            if flow.isPlacing {
                switch press {
                case .select: placeAtCentre()
                case .back, .stop: placingEscape()
                }
                return
            }
            if press == .stop { closeCustomize() }
        }
        let timings = MenuScan.timings(
            intervalMilliseconds: event.scanIntervalMilliseconds, firstItemHoldMilliseconds: event.firstItemHoldMilliseconds)
        perform(scan.press(press, timings: timings, at: now))
    }

    /// Does what the scan says to the menu's widgets.
    func perform(_ steps: [MenuScan.Step]) {
        for step in steps {
            switch step {
            case .open:
                openMenu(gesture: .singleTap)
                guard let menu else {
                    scan.closed()
                    return
                }
                scanShells = [menu]
                perform(scan.opened(items: scanItems(menu).count, at: scanNow()))
            case .highlight(let index):
                guard let shell = scanShells.last else { continue }
                let items = scanItems(shell)
                if items.indices.contains(index) {
                    gtk_menu_shell_select_item(cast(shell), items[index])
                    if let name = gtk_menu_item_get_label(cast(items[index])) { say("scanning: \(String(cString: name))") }
                }
            case .pause:
                if let shell = scanShells.last { gtk_menu_shell_deselect(cast(shell)) }
                say("scanning paused: press the switch to start again")
            case .pick(let index):
                guard let shell = scanShells.last else { continue }
                let items = scanItems(shell)
                guard items.indices.contains(index) else { continue }
                gtk_menu_shell_select_item(cast(shell), items[index])
                if let submenu = gtk_menu_item_get_submenu(cast(items[index])) {
                    if let name = gtk_menu_item_get_label(cast(items[index])) { say("scanning into \(String(cString: name))") }
                    // As the Right key does: the sub-menu opens, its first item selected.
                    _ = gtk_bindings_activate(cast(shell), guint(GDK_KEY_Right), GdkModifierType(rawValue: 0))
                    scanShells.append(submenu)
                    perform(scan.entered(items: scanItems(submenu).count, at: scanNow()))
                } else {
                    // The item is done and the menu closes (its deactivate ends the scan).
                    gtk_menu_shell_activate_item(cast(shell), items[index], 1)
                    scanEnded()
                }
            case .up:
                if scanShells.count > 1, let shell = scanShells.popLast() {
                    // As the Left key does: back to the parent, the sub-menu closed.
                    _ = gtk_bindings_activate(cast(shell), guint(GDK_KEY_Left), GdkModifierType(rawValue: 0))
                }
            case .close:
                if let menu { gtk_menu_shell_cancel(cast(menu)) }
                scanEnded()
            }
        }
        armScanTimer()
    }

    /// The scanned level's items changed: scan them from the first.
    func rescan(_ shell: UnsafeMutablePointer<GtkWidget>) {
        perform(scan.itemsChanged(to: scanItems(shell).count, at: scanNow()))
    }

    /// The menu closed, whatever closed it: no scanning, no timer.
    func scanEnded() {
        scan.closed()
        scanShells = []
        armScanTimer()
    }

    /// The items of a menu level a switch can pick: shown and sensitive.
    func scanItems(_ shell: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var items: [UnsafeMutablePointer<GtkWidget>] = []
        let children = gtk_container_get_children(cast(shell))
        var node = children
        while let current = node {
            if let data = current.pointee.data {
                let widget = data.assumingMemoryBound(to: GtkWidget.self)
                if gtk_widget_get_visible(widget) != 0, gtk_widget_get_sensitive(widget) != 0 { items.append(widget) }
            }
            node = current.pointee.next
        }
        g_list_free(children)
        return items
    }

    /// One timer, at the scan's next deadline; none while nothing scans.
    func armScanTimer() {
        if scanTimer != 0 {
            g_source_remove(scanTimer)
            scanTimer = 0
        }
        guard let deadline = scan.nextDeadline else { return }
        let wait = max(0, (deadline - scanNow()).rawValue / 1_000)
        scanTimer = g_timeout_add(guint(min(wait, 60_000)), onScanTimer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The scan's timer fired.
    func scanTick() {
        scanTimer = 0
        perform(scan.advance(to: scanNow()))
    }

    /// The scan's clock: the monotonic clock, as the machine's.
    func scanNow() -> Microseconds { Microseconds(monotonicNow()) }

    /// A switch places the gesture at the centre of the button's monitor.
    func placeAtCentre() {
        guard monitors.indices.contains(buttonMonitor) else { return }
        let frame = monitors[buttonMonitor]
        let local = (frame.width / 2, frame.height / 2)
        placingClick(monitor: buttonMonitor, local: local, root: (frame.x + local.0, frame.y + local.1))
    }
}

private let onScanTimer: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).scanTick()
    return 0  // G_SOURCE_REMOVE: armScanTimer sets the next one
}

private let onSwitchRetry: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).watchSwitch()
    return 0
}
