/// Bounds on what a gesture may hold, so that a hostile or corrupt file
/// cannot exhaust memory or time. They are generous: an hour of ten fingers
/// sampled at 120 Hz is about 4.3 million samples.
public enum GestureLimits {
    /// Most strokes in one gesture.
    public static let maximumStrokes = 10_000
    /// Most samples in one gesture, over all strokes (8 million).
    public static let maximumSamples = 8_000_000
    /// Longest gesture: 4 hours, in microseconds.
    public static let maximumDuration = Microseconds(4 * 3_600 * 1_000_000)
    /// Largest file the reader accepts: 512 MiB.
    public static let maximumFileBytes = 512 * 1024 * 1024
    /// Largest evemu or libinput record file `import` reads: 8 GiB, more
    /// than `export` writes for any gesture within these limits (at most
    /// about 1 KB a sample: nine events of under 100 bytes; the one-hour
    /// ten-finger gesture exports to about 1 GB), so that import reads what
    /// export writes.
    public static let maximumRecordingBytes = 8 * 1024 * 1024 * 1024
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
