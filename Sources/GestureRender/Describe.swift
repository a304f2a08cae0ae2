import GestureModel

/// How ``describe(_:style:)`` writes its summary.
public enum DescriptionStyle: Hashable, Sendable, CaseIterable {
    /// Short, for a screen: `3 fingers · swipe up · 0.25 s · 40 mm`.
    case text
    /// For speech (a screen reader, `spd-say`, espeak-ng): units in words
    /// and the parts separated by commas, which speech engines read as
    /// pauses: `3 fingers, swipe up, 0.25 seconds, 40 millimetres`. A
    /// rotation's angle is `90 degrees`. Read by espeak-ng, the text style's
    /// `0.25 s · 40 mm` comes out as "zero point two five ess forty em em"
    /// with no pause between the parts.
    case spoken
}

/// A one-line plain-text summary of a gesture, e.g.
/// `3 fingers · swipe up · 0.42 s · 38 mm`, or in the
/// ``DescriptionStyle/spoken`` style
/// `3 fingers, swipe up, 0.42 seconds, 38 millimetres`.
///
/// The parts, joined by ` · ` (by `, ` when spoken):
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
/// 2. The motion, from ``classifyMotion(_:)`` (see ``MotionThresholds``):
///    ``GestureMotion/phrase``, or ``GestureMotion/spokenPhrase`` when spoken.
/// 3. The duration from the first sample to the last, rounded to hundredths
///    of a second: with two decimals (`0.42 s`, `1.00 s`), or when spoken
///    without trailing zeros and in words (`0.42 seconds`, `0.5 seconds`,
///    `1 second`).
/// 4. For swipes, edge swipes, pinches and paths, the distance in whole
///    millimetres (`38 mm`; spoken `38 millimetres`, `1 millimetre`): how
///    far the centroid moved, how much the spread changed, or the longest
///    stroke's length. When the surface's size is unknown (no `width_mm`
///    and no resolution; FORMAT.md's size rule) it is in whole percent of
///    the surface instead, of the height for vertical swipes and of the
///    width otherwise (`85 % of the width`; spoken `85 percent of the
///    width`), since millimetres would be invented.
///
/// A gesture without samples is `no strokes · 0.00 s` (spoken
/// `no strokes, 0 seconds`).
///
/// - Parameters:
///   - gesture: The gesture to describe; any values are accepted.
///   - style: ``DescriptionStyle/text`` (the default) for a screen,
///     ``DescriptionStyle/spoken`` for speech.
/// - Returns: The summary, without a line break.
public func describe(_ gesture: Gesture, style: DescriptionStyle = .text) -> String {
    let analysis = GestureAnalysis(gesture)
    let traces = analysis.traces
    let spoken = style == .spoken
    let separator = spoken ? ", " : " · "
    guard let firstTouch = traces.map(\.stroke.startTime).min(),
        let lastLift = traces.map(\.stroke.endTime).max()
    else { return "no strokes" + separator + durationText(.zero, style: style) }

    var parts = [contactsPhrase(analysis: analysis), spoken ? analysis.motion.spokenPhrase : analysis.motion.phrase]
    parts.append(durationText(NumberFormatting.span(from: firstTouch, to: lastLift), style: style))
    if let distance = analysis.motion.distanceMM {
        if analysis.mapping.isSizeKnown {
            let millimetres = NumberFormatting.roundedInteger(distance)
            parts.append(spoken ? "\(millimetres) \(millimetres == 1 ? "millimetre" : "millimetres")" : "\(millimetres) mm")
        } else {
            parts.append(percentOfSurface(distance, motion: analysis.motion, mapping: analysis.mapping, spoken: spoken))
        }
    }
    return parts.joined(separator: separator)
}

/// The distance part of ``describe(_:style:)`` on a surface whose size is
/// unknown (FORMAT.md's size rule): millimetres there would be invented, so
/// the distance is given in percent of the surface's height for vertical
/// motions and of its width otherwise: `85 % of the width`.
private func percentOfSurface(_ distanceMM: Double, motion: GestureMotion, mapping: SurfaceMapping, spoken: Bool)
    -> String
{
    let vertical: Bool
    switch motion {
    case .swipe(let direction, _): vertical = direction == .up || direction == .down
    case .edgeSwipe(let edge, _): vertical = edge == .top || edge == .bottom
    default: vertical = false
    }
    let length = vertical ? mapping.heightMM : mapping.widthMM
    let percent = NumberFormatting.roundedInteger(distanceMM / length * 100)
    let side = vertical ? "height" : "width"
    return spoken ? "\(percent) percent of the \(side)" : "\(percent) % of the \(side)"
}

/// The duration part of ``describe(_:style:)``.
private func durationText(_ duration: Microseconds, style: DescriptionStyle) -> String {
    switch style {
    case .text: NumberFormatting.seconds(duration)
    case .spoken: NumberFormatting.spokenSeconds(duration)
    }
}

/// Who touches in a gesture, and how many at once: what the first part of
/// ``describe(_:style:)`` and ``suggestedName(for:)`` say.
struct ContactSummary {
    /// The strokes that have samples.
    let strokes: [Stroke]
    /// Their kind when all have the same one; `nil` for a mix.
    let kind: StrokeKind?
    /// The contacts at once; for a double tap, those of one of its taps.
    let contacts: Int
    /// Whether the strokes never overlap (and are not a double tap).
    let isSequence: Bool

    init(_ analysis: GestureAnalysis) {
        strokes = analysis.traces.map(\.stroke)
        let firstKind = strokes.first?.kind
        kind = strokes.allSatisfy { $0.kind == firstKind } ? firstKind : nil
        let simultaneous = Gesture(name: "", device: .synthDefault, strokes: strokes).maximumSimultaneousContacts
        let isDoubleTap = analysis.doubleTapWaveSize != nil
        // A double tap's contacts are those of one of its two taps.
        contacts = analysis.doubleTapWaveSize ?? simultaneous
        isSequence = !isDoubleTap && strokes.count > 1 && simultaneous == 1
    }
}

/// The first part of ``describe(_:style:)``: who touches, and how many at once.
private func contactsPhrase(analysis: GestureAnalysis) -> String {
    let summary = ContactSummary(analysis)
    guard let firstStroke = summary.strokes.first else { return "no strokes" }
    let strokes = summary.strokes
    let contacts = summary.contacts
    let isSequence = summary.isSequence

    switch summary.kind {
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
