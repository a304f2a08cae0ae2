import CommandKit
import GestureFormat
import GestureLibrary

/// Maps the libraries' errors to the documented exit statuses.
enum ErrorMapping {
    static func failure(for error: any Error) -> CommandFailure? {
        switch error {
        case let error as FileSystemError:
            switch error.kind {
            case .notFound: return .notFound(error.description)
            case .permissionDenied: return .permissionDenied(error.description)
            default: return .failure(error.description)
            }
        case let error as LibraryError:
            switch error.kind {
            case .notFound: return .notFound(error.message)
            case .permissionDenied: return .permissionDenied(error.message)
            case .invalidName: return .usage(error.message)
            default: return .failure(error.message)
            }
        case let error as GestureFormatError:
            return .failure(error.description)
        default:
            return nil
        }
    }
}
