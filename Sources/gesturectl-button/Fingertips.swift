import ButtonModel
import CGtk
import GestureModel

/// Live fingertips from the menu's Gestures (2–5): started through the
/// daemon from the button's `--device` (else the daemon's only touch or
/// pointer device), followed until they end as they end from `gesturectl
/// fingertips` (ButtonModel's ``FingertipsFlow``). Meanwhile the button
/// shows its busy ring and is named "Stop the N fingertips": a tap (or
/// Return on it) cancels them. What they do and how they end is said
/// beside the button.
extension ButtonWindow {
    /// `count` fingertips were chosen in the menu.
    func startFingertips(_ count: Int) {
        guard fingertips.start(count: count) else {
            note("Fingertips are running already: tap the button to stop them first")
            return
        }
        fingertipsLine = nil
        fingertipsSource = nil
        say("fingertips: asking the daemon for \(count)" + (settings.device.map { " from \(shown($0))" } ?? ""))
        updateFingertipsBusy()
        link.fingertips(count: count, device: settings.device) { [self] reply in
            switch reply {
            case .fingertipsStarted(let job, let source, let kind, let handle):
                fingertipsHandle = handle
                say("fingertips: job \(job), \(count) from \(shown(source)) (\(kind))")
                if fingertips.started(job: job) {
                    handle.cancel()
                } else {
                    fingertipsSource = (source, kind)
                    note(FingertipsFlow.runningText(count: count, sourceName: source, kind: kind, line: fingertipsLine))
                }
            case .fingertipsReady(let line):
                fingertipsLine = line
                if let source = fingertipsSource, case .running = fingertips.state {
                    note(FingertipsFlow.runningText(count: count, sourceName: source.name, kind: source.kind, line: line))
                }
            case .fingertipsEnded(let reason, let message):
                fingertips.ended()
                fingertipsHandle = nil
                note(FingertipsFlow.endedText(count: count, reason: reason, message: message))
            case .failed(let failure):
                fingertips.ended()
                fingertipsHandle = nil
                if failure.unreachable { daemonMissing = failure.message }
                note("Could not start \(count) fingertips: \(DisplayText.escaped(failure.message))"
                    + (failure.unreachable ? "; \(ButtonMenu.startHint)" : ""))
            default:
                break
            }
            updateFingertipsBusy()
        }
    }

    /// A tap on the button (its action, or the stop a busy button's tap
    /// is): whether it was the fingertips' (then it cancels them).
    func fingertipsTapped() -> Bool {
        switch fingertips.tap() {
        case .notRunning:
            return false
        case .cancel(let job):
            say("stopping fingertips job \(job)")
            fingertipsHandle?.cancel()
        case .nothing:
            break
        }
        updateFingertipsBusy()
        // No menu was opened: the model's menu is closed again.
        handle(.menuClosed(at: monotonicNow()))
        return true
    }

    /// The button as the fingertips are (and, when none run, as the play is).
    func updateFingertipsBusy() {
        if fingertips.isActive { showFingertipsBusy() } else { updateBusy() }
    }

    /// Busy with fingertips: the turning ring, named "Stop the N fingertips".
    func showFingertipsBusy() {
        let name = FingertipsFlow.stopName(count: fingertips.count ?? 0)
        if let accessible = gtk_widget_get_accessible(button) {
            atk_object_set_name(accessible, name)
            atk_object_set_description(
                accessible, "Live fingertips are running: tap to stop them (they also end after a pause without input)")
        }
        gtk_widget_set_tooltip_text(button, name)
        gtk_widget_set_opacity(button, 1)
        if spinTimer == 0 { spinTimer = g_timeout_add(50, onFingertipsSpin, Unmanaged.passUnretained(self).toOpaque()) }
        gtk_widget_queue_draw(button)
        flowChanged()
    }
}

private let onFingertipsSpin: @convention(c) (gpointer?) -> gboolean = { data in
    view(data).spin()
    return 1  // G_SOURCE_CONTINUE: removed by updateBusy when nothing is busy
}
