/// Bounds on what a gesture may hold, so that a hostile or corrupt file
/// cannot exhaust memory or time. They are generous: an hour of ten fingers
/// sampled at 120 Hz is about 4.3 million samples.
///
/// Two sample limits: what is held in memory (a file read whole, a
/// recording, an edit that copies samples) is bounded by memory, 8
/// million; what stays in a file and is read when used (a gesture file of
/// 1 MiB or more, which is mapped; an import, whose samples go to a
/// temporary file) costs 8 bytes per 256 samples, and may have 100
/// million: ten hours of ten fingers at 120 Hz is 43 million (issue 39).
public enum GestureLimits {
    /// Most strokes in one gesture.
    public static let maximumStrokes = 10_000
    /// Most samples held in memory in one gesture, over all strokes (8
    /// million): a gesture read whole (standard input, the daemon, a file
    /// under 1 MiB), a recording, the result of an edit that copies them.
    public static let maximumSamples = 8_000_000
    /// Most samples in one gesture whose samples stay in its file, read
    /// when used (a mapped gesture file, an import spilled to a temporary
    /// file): 100 million, over all strokes. Their index costs 8 bytes
    /// per 256 samples (3 MiB at the limit).
    public static let maximumStreamedSamples = 100_000_000
    /// The sample limit of a gesture whose samples are `streamed` (left in
    /// a file) or held.
    public static func sampleLimit(streamed: Bool) -> Int { streamed ? maximumStreamedSamples : maximumSamples }
    /// Longest gesture: 24 hours, in microseconds (a rig's overnight soak
    /// recording fits; nothing is held per unit of time).
    public static let maximumDuration = Microseconds(24 * 3_600 * 1_000_000)
    /// ``maximumDuration`` in words, for messages: "24 hours".
    public static let maximumDurationWords = "\(maximumDuration.rawValue / 3_600_000_000) hours"
    /// Largest gesture file read whole into memory (standard input, the
    /// daemon's library and requests, anything not a regular file): 512 MiB.
    public static let maximumFileBytes = 512 * 1024 * 1024
    /// Largest gesture file read by mapping it (a regular file of 1 MiB or
    /// more, named on `gesturectl`'s command line): 8 GiB, room for the
    /// streamed sample limit at 80 bytes a sample (ten hours of ten
    /// fingers at 120 Hz is 1.4 GiB).
    public static let maximumMappedFileBytes = 8 * 1024 * 1024 * 1024
    /// Largest evemu or libinput record file `import` reads: 32 GiB, more
    /// than `export` writes for the gestures these limits allow in practice
    /// (about 220 bytes a sample for evemu and 260 for libinput record:
    /// the one-hour ten-finger gesture exports to about 1 GB, ten hours to
    /// 10 GB), so that import reads what export writes.
    public static let maximumRecordingBytes = 32 * 1024 * 1024 * 1024
    /// Most repetitions of one play (`play --repeat`, the daemon's
    /// `repeat`): 10,000. Held in memory, a play's repetitions are also
    /// limited to 16 million events together (one repetition never is);
    /// written as text (`play --print`) they are not.
    public static let maximumRepeatCount = 10_000
    /// Longest name, in UTF-8 bytes.
    public static let maximumNameBytes = 200
    /// Longest description, in UTF-8 bytes.
    public static let maximumDescriptionBytes = 4_096
    /// Largest absolute value of any coordinate or axis bound.
    public static let maximumCoordinate = 1 << 31
    /// Largest physical width or height of a surface: 100 000 mm (100 m,
    /// several times the largest interactive wall). Beyond it a size is not
    /// physical, and its thousandths would no longer be written exactly.
    public static let maximumSurfaceMillimetres = 100_000.0
}
