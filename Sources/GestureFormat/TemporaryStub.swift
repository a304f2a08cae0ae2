// TEMPORARY: stands in for the real format until its branch lands.
import GestureModel
public enum GestureFileFormat {
    public static let currentVersion = 1
    public static func encode(_ g: Gesture) -> String { "" }
    public static func decode(_ bytes: [UInt8], source: String) throws(GestureFormatError) -> Gesture {
        throw GestureFormatError(description: "stub")
    }
}
public struct GestureFormatError: Error, CustomStringConvertible { public var description: String }
public struct GestureValidationError: Error, CustomStringConvertible { public var description: String }
extension Gesture { public func validate() throws(GestureValidationError) {} }
