import Foundation

/// A fresh folder under the temporary directory, removed (with everything
/// in it) when the value is released. Keep the value alive while its files
/// are used (`withExtendedLifetime`, or use it after the last file access).
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Creates the folder (`mkdtemp`, so the name cannot collide).
    public init(prefix: String = "gesturectl-test") throws {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let text = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard made != nil else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: text]) }
        path = text
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The folder as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` (UTF-8) to `name` inside the folder.
    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    /// The text of `name` inside the folder.
    public func read(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8)
    }

    /// Whether `name` exists inside the folder.
    public func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }
}
