import GestureModel

/// Why a gesture could not be synthesised. ``description`` is a message
/// for people; options are named by their command-line flags (`--fingers`,
/// `--rate`, `--duration`, `--tap-duration`, `--gap`, `--distance`,
/// `--start-radius`, `--end-radius`, `--radius`, `--degrees`, `--spacing`,
/// `--centre`, `--along`, `--name`, `--description`).
public enum SynthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The finger count is outside what the shape allows.
    case fingersOutOfRange(shape: String, fingers: Int, allowed: ClosedRange<Int>)
    /// The device tracks fewer contacts than the gesture has fingers.
    case moreFingersThanSlots(fingers: Int, slots: Int)
    /// The sample rate is outside 1…1000 Hz.
    case sampleRateOutOfRange(Int)
    /// A duration is zero, negative or longer than 60 s (`option` names it).
    case durationOutOfRange(option: String, duration: Microseconds)
    /// The whole gesture (a double tap's two taps and gap) is longer than 60 s.
    case gestureTooLong(shape: String, duration: Microseconds)
    /// A number is not finite or is outside its allowed range; `requirement`
    /// says what it must be.
    case invalidNumber(option: String, value: Double, requirement: String)
    /// A swipe distance is longer than the surface along the direction of motion.
    case distanceDoesNotFit(distanceMM: Double, widthMM: Double, heightMM: Double)
    /// A finger would leave the surface at `point`; nothing is clipped.
    case outsideSurface(shape: String, point: MillimetrePoint, widthMM: Double, heightMM: Double)
    /// A point option (`--centre`) lies off the surface.
    case pointOffSurface(option: String, point: MillimetrePoint, widthMM: Double, heightMM: Double)
    /// Options were given that contradict each other.
    case conflictingOptions(String)
    /// A pinch's radii go the wrong way for its direction.
    case pinchRadiiWrongWay(direction: PinchDirection, startRadiusMM: Double, endRadiusMM: Double)
    /// The device geometry has no usable size or range.
    case unusableGeometry(String)
    /// The name is empty, blank or too long.
    case invalidName(String)
    /// The description is longer than ``GestureLimits/maximumDescriptionBytes``.
    case descriptionTooLong(bytes: Int)

    /// A message for people, naming the option and the value at fault.
    public var description: String {
        switch self {
        case let .fingersOutOfRange(shape, fingers, allowed):
            return "--fingers must be \(allowed.lowerBound) to \(allowed.upperBound) for a \(shape) (got \(fingers))"
        case let .moreFingersThanSlots(fingers, slots):
            return "the device tracks at most \(Plural.count(slots, "contact")) at once, too few for \(Plural.count(fingers, "finger"))"
        case let .sampleRateOutOfRange(rate):
            return "--rate must be \(SynthDefaults.sampleRateRange.lowerBound) to "
                + "\(SynthDefaults.sampleRateRange.upperBound) Hz (got \(rate))"
        case let .durationOutOfRange(option, duration):
            return "\(option) must be more than 0 s and at most "
                + "\(formatSeconds(SynthDefaults.maximumDuration)) s (got \(formatSeconds(duration)) s)"
        case let .gestureTooLong(shape, duration):
            return "the \(shape) would last \(formatSeconds(duration)) s; a synthesised gesture lasts at most "
                + "\(formatSeconds(SynthDefaults.maximumDuration)) s"
        case let .invalidNumber(option, value, requirement):
            return "\(option) must be \(requirement) (got \(formatNumber(value)))"
        case let .distanceDoesNotFit(distance, width, height):
            return "distance \(formatNumber(distance)) mm does not fit on the \(formatSurface(width, height)) surface"
        case let .outsideSurface(shape, point, width, height):
            return "the \(shape) reaches (\(formatNumber(point.x)), \(formatNumber(point.y))) mm, "
                + "outside the \(formatSurface(width, height)) surface"
        case let .pointOffSurface(option, point, width, height):
            return "\(option) (\(formatNumber(point.x)), \(formatNumber(point.y))) mm is outside the "
                + "\(formatSurface(width, height)) surface"
        case let .conflictingOptions(message):
            return message
        case let .pinchRadiiWrongWay(direction, start, end):
            let comparison = direction == .in ? "smaller" : "larger"
            return "a pinch \(direction.rawValue) must end on a \(comparison) radius than it starts "
                + "(start \(formatNumber(start)) mm, end \(formatNumber(end)) mm)"
        case let .unusableGeometry(reason):
            return "cannot synthesise on this device geometry: \(reason)"
        case let .invalidName(reason):
            return "--name \(reason)"
        case let .descriptionTooLong(bytes):
            return "--description must be at most \(GestureLimits.maximumDescriptionBytes) bytes (got \(bytes))"
        }
    }
}

/// "216 × 135 mm".
func formatSurface(_ widthMM: Double, _ heightMM: Double) -> String {
    "\(formatNumber(widthMM)) × \(formatNumber(heightMM)) mm"
}
