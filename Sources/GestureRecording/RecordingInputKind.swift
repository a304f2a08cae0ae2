/// How a device reports its contacts, which decides how the recorder reads
/// its events.
public enum RecordingInputKind: String, Hashable, Sendable, CaseIterable {
    /// Multi-touch protocol B: `ABS_MT_SLOT` and `ABS_MT_TRACKING_ID`, state
    /// kept per slot, only changes sent.
    case multitouchSlots
    /// Multi-touch protocol A: every contact's values followed by
    /// `SYN_MT_REPORT`, every frame complete; no slots.
    case multitouchProtocolA
    /// One contact: `ABS_X`/`ABS_Y` and `BTN_TOUCH`.
    case singleTouch
    /// A pen tablet: `BTN_TOOL_PEN` for proximity, `BTN_TOUCH` for contact,
    /// `ABS_PRESSURE`.
    case pen
    /// A relative pointer (mouse, trackball): `REL_X`/`REL_Y` and buttons.
    case relativePointer
    /// An absolute pointer (a QEMU or KVM-over-IP "USB tablet", an
    /// interactive whiteboard): `ABS_X`/`ABS_Y` and mouse buttons, no
    /// `BTN_TOUCH` to say when it touches; a stroke is a button held.
    case absolutePointer
}
