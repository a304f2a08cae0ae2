import GestureModel

/// A one-line plain-text summary of a gesture that a screen reader can
/// speak, e.g. `3 fingers · swipe up · 0.42 s · 38 mm`.
///
/// The parts, joined by ` · `:
/// 1. Who touches:
///    - fingers: the largest number of contacts at once (`1 finger`,
///      `2 fingers`); strokes that never overlap are
///      `3 strokes one after another`;
///    - pens: `pen` (`2 pens` at once, `2 pen strokes one after another`);
///    - pointers: `mouse drag` for a moving left-button (or button-less)
///      stroke, `right button drag` / `middle button drag` for the other
///      buttons, and the button alone (`left button`) for a click, double
///      click or held click; several pointer strokes are `2 pointers` or
///      `2 pointer strokes one after another`;
///    - a mix of kinds: `2 contacts` or `2 strokes one after another`;
///    - a double tap counts the contacts of one tap (`1 finger · double tap`).
/// 2. The motion, from ``classifyMotion(_:)`` (see ``MotionThresholds``).
/// 3. The duration from the first sample to the last, in seconds with two
///    decimals (`0.42 s`).
/// 4. For swipes, edge swipes, pinches and paths, the distance in whole
///    millimetres (`38 mm`): how far the centroid moved, how much the
///    spread changed, or the longest stroke's length.
///
/// A gesture without samples is `no strokes · 0.00 s`.
///
/// - Parameter gesture: The gesture to describe; any values are accepted.
/// - Returns: The summary, without a line break.
public func describe(_ gesture: Gesture) -> String {
    let analysis = GestureAnalysis(gesture)
    let traces = analysis.traces
    guard let firstTouch = traces.map(\.stroke.startTime).min(),
        let lastLift = traces.map(\.stroke.endTime).max()
    else { return "no strokes · " + NumberFormatting.seconds(.zero) }

    var parts = [contactsPhrase(analysis: analysis), analysis.motion.phrase]
    parts.append(NumberFormatting.seconds(NumberFormatting.span(from: firstTouch, to: lastLift)))
    if let distance = analysis.motion.distanceMM {
        parts.append("\(NumberFormatting.roundedInteger(distance)) mm")
    }
    return parts.joined(separator: " · ")
}

/// The first part of ``describe(_:)``: who touches, and how many at once.
private func contactsPhrase(analysis: GestureAnalysis) -> String {
    let strokes = analysis.traces.map(\.stroke)
    guard let firstStroke = strokes.first else { return "no strokes" }
    let kind: StrokeKind? = strokes.allSatisfy { $0.kind == firstStroke.kind } ? firstStroke.kind : nil
    let simultaneous = Gesture(
        name: "", device: .synthDefault, strokes: strokes
    ).maximumSimultaneousContacts
    let isDoubleTap = analysis.doubleTapWaveSize != nil
    // A double tap's contacts are those of one of its two taps.
    let contacts = analysis.doubleTapWaveSize ?? simultaneous
    let isSequence = !isDoubleTap && strokes.count > 1 && simultaneous == 1

    switch kind {
    case .finger:
        if isSequence { return "\(strokes.count) strokes one after another" }
        return contacts == 1 ? "1 finger" : "\(contacts) fingers"
    case .pen:
        if isSequence { return "\(strokes.count) pen strokes one after another" }
        return contacts == 1 ? "pen" : "\(contacts) pens"
    case .pointer:
        if isSequence { return "\(strokes.count) pointer strokes one after another" }
        guard contacts == 1 else { return "\(contacts) pointers" }
        let button = firstStroke.button ?? .left
        switch analysis.motion {
        case .tap, .doubleTap, .press, .longPress:
            return "\(button.rawValue) button"
        default:
            return button == .left ? "mouse drag" : "\(button.rawValue) button drag"
        }
    case nil:
        if isSequence { return "\(strokes.count) strokes one after another" }
        return "\(contacts) contacts"
    }
}
