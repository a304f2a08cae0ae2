import Glibc

/// The errno values that callers outside this module act on, by name, so
/// that they can test ``SystemError/errorNumber`` without importing the C
/// library.
public enum ErrorNumber {
    /// ENOENT: no such file or directory.
    public static let noSuchFile: Int32 = ENOENT
    /// ENOTDIR: a component of the path is not a folder.
    public static let notADirectory: Int32 = ENOTDIR
    /// EACCES: permission denied.
    public static let accessDenied: Int32 = EACCES
    /// EPERM: operation not permitted.
    public static let notPermitted: Int32 = EPERM
    /// EROFS: read-only file system.
    public static let readOnlyFileSystem: Int32 = EROFS
    /// EEXIST: the file exists.
    public static let alreadyExists: Int32 = EEXIST
    /// EFBIG: file too large.
    public static let fileTooLarge: Int32 = EFBIG
    /// EISDIR: is a folder.
    public static let isADirectory: Int32 = EISDIR
    /// EPIPE: the reading end of a pipe or socket is closed.
    public static let brokenPipe: Int32 = EPIPE
    /// EAGAIN: a non-blocking descriptor has nothing now.
    public static let wouldBlock: Int32 = EAGAIN
    /// EBADF: the descriptor is not open.
    public static let badDescriptor: Int32 = EBADF
    /// ENODEV: no such device (on an open device: it went away).
    public static let noSuchDevice: Int32 = ENODEV
    /// A link where none may be followed (`O_NOFOLLOW`), or a loop of links.
    public static let tooManyLinks: Int32 = ELOOP
    /// EBUSY: the resource is in use (a USB device controller bound to another gadget).
    public static let busy: Int32 = EBUSY
    /// ESHUTDOWN: the endpoint is shut down (a USB gadget the host has not configured).
    public static let endpointShutDown: Int32 = ESHUTDOWN
    /// ENOTEMPTY: the folder is not empty.
    public static let notEmpty: Int32 = ENOTEMPTY
    /// EMFILE: too many files open (or, from ``MappedFile``, mapped) at once.
    public static let tooManyOpenFiles: Int32 = EMFILE
}
