import GestureModel
import InputSystem

/// Spaces a play's frames on a touchpad so that a play that fell behind
/// catches up without libinput discarding a touch: the player's second
/// floor, beside half a frame's interval (``Player``).
///
/// The rule is ``TouchpadStepGuard``'s, libinput's `tp_detect_jumps`: each
/// contact's step, scaled to 12 ms by the kernel's time stamps, is a jump
/// over 20 mm or over 7 mm more than its previous scaled step. Catching up
/// at twice the speed doubles a step's scaled size at once; a stroke faster
/// than about 580 mm/s then grows by more than 7 mm in one frame. Unlike
/// live fingertips, a play's frames are its gesture's own and are never
/// cut: a frame waits instead, until enough time has passed since the
/// previous write ended for each moving contact's step to be at most
/// 18 mm, and at most 6 mm more than its previous step, per 12 ms.
///
/// Two rules keep the play's own timing:
/// - **The gesture's own growth is allowed.** A step may grow by as much as
///   it grows in the gesture at its own pace (a flick that starts fast), so
///   that only what catching up would add is held back. A play on its
///   deadlines is not held, except where its own steps grow by 6 mm per
///   12 ms or more (a start libinput may itself take for a jump): there
///   the previous step is known only within its write, and a frame waits
///   about as long as a write takes.
/// - **No wait beyond what libinput checks:** frames more than 30 ms apart
///   are not looked at, so no frame waits longer than that.
///
/// libinput resets every contact twice when the number of fingers
/// changes, in that frame and in the next it sees, so the frame after that
/// is judged against a previous step of 0: a play that starts late may
/// grow its first steps by 6 mm per 12 ms only (a catch-up at twice the
/// speed right after the touch was a jump, issue 23).
///
/// The times are bounds, as in ``TouchpadStepGuard``: a step is judged by
/// the least interval libinput can see (the end of the previous write to
/// now), and the previous step is taken at its least (from the start of the
/// write where the contact last moved to the end of this one). Work per
/// frame is a pass over its events and the device's slots, with no
/// allocation: only touchpad plays pay it.
public struct TouchpadPacing: Sendable {
    /// What the pacing knows of one slot.
    struct Slot: Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        /// The previous scaled step libinput can have kept, at its least (mm).
        var leastStep = 0.0
        /// The previous scaled step at the gesture's own pace (mm).
        var ownStep = 0.0
        /// The gesture time of the frame that last moved the contact.
        var lastMoveTime = Microseconds.zero
        /// When the write that last moved the contact began; `nil` before any.
        var lastMoveWriteBegan: Microseconds?
        /// In a prepared frame: this contact's step (mm), 0 when it did not move.
        var preparedDistance = 0.0
        /// In a prepared frame: its step at the gesture's own pace (mm per 12 ms).
        var preparedOwnStep = 0.0

        var isDown: Bool { trackingID >= 0 }
    }

    private let unitsPerMM: (x: Double, y: Double)
    /// What readers know now.
    private var slots: [Slot]
    private var currentSlot: Int
    /// The state after the prepared frame; kept allocated between frames.
    private var next: [Slot]
    private var nextSlot: Int
    /// Whether the prepared frame changes how many contacts are down.
    private var preparedResets = true
    /// Whether libinput starts every contact afresh once more at the next
    /// frame that moves one: after the number of fingers changes, it resets
    /// their history in that frame and again in the next
    /// (`quirks.reset_motion_history`), and checks the frame after that
    /// against a previous step of 0.
    private var resetFollows = false
    /// The gesture time of the prepared frame.
    private var preparedTime = Microseconds.zero
    /// Whether any frame has been written (the first starts afresh).
    private var hasWritten = false

    /// Pacing for a touchpad with `surface`'s axes (a resolution of 0 is
    /// taken as libinput takes it: 1 unit per millimetre), whose readers
    /// know `state` before the play.
    public init(surface: DeviceGeometry, state: DeviceState) {
        unitsPerMM = (Double(max(1, surface.x.resolution)), Double(max(1, surface.y.resolution)))
        var slots = [Slot](repeating: Slot(), count: max(1, state.slotCount))
        for slot in state.activeSlots where slot < slots.count {
            slots[slot].trackingID = state.slotValue(slot: slot, code: .multitouchTrackingID) ?? -1
            slots[slot].x = state.slotValue(slot: slot, code: .multitouchPositionX) ?? 0
            slots[slot].y = state.slotValue(slot: slot, code: .multitouchPositionY) ?? 0
        }
        self.slots = slots
        next = slots
        currentSlot = state.currentSlot ?? 0
        nextSlot = currentSlot
    }

    /// Takes `frame` as the next to be written and returns the least time
    /// after the previous write ended at which it may be: zero when it
    /// changes how many contacts are down (libinput starts every contact
    /// afresh then) or moves nothing. Follow it with ``wrote(began:ended:)``
    /// once it is written.
    public mutating func prepare(_ frame: InputFrame) -> Microseconds {
        for index in slots.indices {
            next[index] = slots[index]
            next[index].preparedDistance = 0
        }
        nextSlot = currentSlot
        preparedTime = frame.time
        for event in frame.events where event.type == .absolute {
            if event.code == .multitouchSlot {
                nextSlot = Int(event.value)
                continue
            }
            guard nextSlot >= 0, nextSlot < next.count else { continue }
            if event.code == .multitouchTrackingID {
                next[nextSlot].trackingID = event.value
            } else if event.code == .multitouchPositionX {
                next[nextSlot].x = event.value
            } else if event.code == .multitouchPositionY {
                next[nextSlot].y = event.value
            }
        }
        var downBefore = 0, downAfter = 0
        for index in slots.indices {
            if slots[index].isDown { downBefore += 1 }
            if next[index].isDown { downAfter += 1 }
        }
        // libinput resets every contact when the number of fingers changes;
        // a contact that replaces another in a frame where the count stays
        // (one lifts as another lands) is new, and the others go on.
        preparedResets = !hasWritten || downBefore != downAfter
        if preparedResets { return .zero }
        var least = 0.0
        for index in slots.indices where next[index].isDown && next[index].trackingID == slots[index].trackingID {
            let from = slots[index], to = next[index]
            let dx = Double(to.x - from.x) / unitsPerMM.x, dy = Double(to.y - from.y) / unitsPerMM.y
            let distance = (dx * dx + dy * dy).squareRoot()
            guard distance > 0 else { continue }
            next[index].preparedDistance = distance
            let ownInterval = Double((frame.time - from.lastMoveTime).rawValue)
            // A step the gesture makes in no time: nothing to keep to.
            guard ownInterval > 0 else {
                next[index].preparedOwnStep = .infinity
                continue
            }
            let ownStep = distance * TouchpadStepGuard.referenceInterval / ownInterval
            next[index].preparedOwnStep = ownStep
            let allowed = max(
                min(TouchpadStepGuard.largestStepMM, from.leastStep + TouchpadStepGuard.largestGrowthMM),
                from.leastStep + (ownStep - from.ownStep))
            least = max(least, distance * TouchpadStepGuard.referenceInterval / allowed)
        }
        let unchecked = TouchpadStepGuard.uncheckedAfter.rawValue + 1
        return Microseconds(min(unchecked, Int64(least.rounded(.up))))
    }

    /// Notes that the prepared frame was written: its write began at
    /// `began` and ended at `ended`.
    public mutating func wrote(began: Microseconds, ended: Microseconds) {
        // The frame after a change in the number of fingers, if libinput
        // sees it (one that moves nothing may not reach it): libinput resets
        // every contact again, whatever its step.
        let resetsAgain = resetFollows && !preparedResets && next.indices.contains { next[$0].preparedDistance > 0 }
        for index in next.indices where next[index].isDown {
            let distance = next[index].preparedDistance
            if preparedResets || next[index].trackingID != slots[index].trackingID || (resetsAgain && distance > 0) {
                // libinput starts the contact afresh: a previous step of 0.
                next[index].leastStep = 0
                next[index].ownStep = 0
                next[index].lastMoveTime = preparedTime
                next[index].lastMoveWriteBegan = began
                continue
            }
            guard distance > 0 else {
                // Reset but not looked at, libinput keeps its step: 0 is the least.
                if resetsAgain { next[index].leastStep = 0 }
                continue
            }
            let longest = (ended - (slots[index].lastMoveWriteBegan ?? began)).rawValue
            // Stamps that may be equal or over 30 ms apart may not have been
            // checked, and then the step libinput keeps is the one before.
            if longest > 0 {
                let least = distance * TouchpadStepGuard.referenceInterval / Double(longest)
                next[index].leastStep =
                    longest > TouchpadStepGuard.uncheckedAfter.rawValue ? min(slots[index].leastStep, least) : least
            }
            next[index].ownStep = next[index].preparedOwnStep
            next[index].lastMoveTime = preparedTime
            next[index].lastMoveWriteBegan = began
        }
        if preparedResets {
            resetFollows = true
        } else if resetsAgain {
            resetFollows = false
        }
        swap(&slots, &next)
        currentSlot = nextSlot
        hasWritten = true
    }
}
