import Foundation

/// Facts about where the tests run.
public enum TestEnvironment {
    /// Whether the tests run under CI (`CI=true`), where a missing outside
    /// tool (evemu, libinput replay, xmllint, …) is a failure rather than a
    /// loud skip.
    public static let isContinuousIntegration = ProcessInfo.processInfo.environment["CI"] == "true"
}
