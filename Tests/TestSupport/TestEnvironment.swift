import Foundation
import Testing

/// Facts about where the tests run.
public enum TestEnvironment {
    /// Whether the tests run under CI (`CI=true`), where a missing outside
    /// tool (evemu, libinput replay, xmllint, …) or device (/dev/uinput,
    /// /dev/uhid) is a failure rather than a loud skip.
    public static let isContinuousIntegration = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether this process may open the device node at `path` for writing.
    public static func canWrite(_ path: String) -> Bool { FileManager.default.isWritableFile(atPath: path) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test (or every test of the suite) where `available`;
    /// elsewhere it is skipped, with `reason` saying what is missing —
    /// except under CI (``TestEnvironment/isContinuousIntegration``), where
    /// it runs and fails on what is missing: there, a skip would pass for
    /// a run.
    public static func requiring(
        _ available: Bool, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        .enabled(
            if: available || TestEnvironment.isContinuousIntegration, Comment(rawValue: reason),
            sourceLocation: sourceLocation)
    }

    /// ``requiring(_:_:sourceLocation:)`` for a device node the tests write
    /// to, such as /dev/uinput or /dev/uhid: skipped where it is not
    /// writable, a failure under CI.
    public static func requiringDevice(
        _ path: String, _ hint: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        requiring(
            TestEnvironment.canWrite(path), "SKIPPED LOUDLY: \(path) is missing or not writable (\(hint))",
            sourceLocation: sourceLocation)
    }
}
