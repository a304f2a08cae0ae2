import Glibc

/// The funnels through which every C call in this module turns its error
/// convention into a thrown ``SystemError``.
///
/// libc uses "-1 and errno"; libevdev uses "a negative errno"; libudev uses
/// "NULL and errno" or "a negative errno". One helper per convention, so that
/// each wrapper reports the call, the path and the errno the same way.
enum Syscall {
    /// Checks a libc result of the "-1 and errno" convention; returns the
    /// result when it is not -1.
    @discardableResult
    static func checkMinusOne(
        _ result: Int32, call: String, path: String?, deviceIsOpen: Bool = false
    ) throws(SystemError) -> Int32 {
        guard result == -1 else { return result }
        let errorNumber = errno
        throw SystemError(
            call: call, path: path, errorNumber: errorNumber, kind: kind(of: errorNumber, deviceIsOpen: deviceIsOpen))
    }

    /// Checks a result of the "negative errno" convention (libevdev,
    /// libudev); returns the result when it is not negative.
    @discardableResult
    static func checkNegativeErrno(
        _ result: Int32, call: String, path: String?, deviceIsOpen: Bool = false, detail: String? = nil
    ) throws(SystemError) -> Int32 {
        guard result < 0 else { return result }
        // -Int32.min would trap; no real errno is that large.
        let errorNumber = result == Int32.min ? Int32.max : -result
        throw SystemError(
            call: call, path: path, errorNumber: errorNumber,
            kind: kind(of: errorNumber, deviceIsOpen: deviceIsOpen), detail: detail)
    }

    /// ENODEV on a device that was already open means it went away; before
    /// that, errno values keep their usual meaning.
    static func kind(of errorNumber: Int32, deviceIsOpen: Bool) -> SystemError.Kind {
        deviceIsOpen && errorNumber == ENODEV ? .deviceVanished : SystemError.defaultKind(of: errorNumber)
    }

    /// Checks a pointer result of the "NULL and errno" convention; an errno
    /// of 0 (some libudev paths fail without setting it) becomes ENOMEM.
    static func checkNull<Pointer>(
        _ result: Pointer?, call: String, path: String?
    ) throws(SystemError) -> Pointer {
        if let result { return result }
        let errorNumber = errno != 0 ? errno : ENOMEM
        throw SystemError(call: call, path: path, errorNumber: errorNumber)
    }

    /// `open(2)`, retried on EINTR.
    static func open(_ path: String, flags: Int32) throws(SystemError) -> Int32 {
        while true {
            let descriptor = Glibc.open(path, flags)
            if descriptor == -1 && errno == EINTR { continue }
            return try checkMinusOne(descriptor, call: "open", path: path)
        }
    }

    /// `close(2)`. Errors are ignored: the descriptor is gone either way on
    /// Linux, and retrying after EINTR could close someone else's descriptor.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}
