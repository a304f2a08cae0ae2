import Glibc

/// The funnels through which every C call turns its error convention into a
/// thrown ``SystemError``: the one place in the package where `errno` is read.
///
/// libc uses "-1 and errno"; pthread calls return an errno value; libevdev
/// uses "a negative errno"; libudev "NULL and errno" or "a negative errno".
/// One helper per convention, so that each wrapper reports the call, the
/// path and the errno the same way. Retrying after EINTR is explicit.
public enum Syscall {
    /// Runs `body`, a libc call of the "-1 and errno" convention, and
    /// returns its result when it is not -1; retries on EINTR when
    /// `retryOnInterrupt` (the default).
    @discardableResult
    public static func minusOne<Result: FixedWidthInteger>(
        _ call: String, path: String? = nil, deviceIsOpen: Bool = false, retryOnInterrupt: Bool = true,
        detail: String? = nil, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            guard result == -1 else { return result }
            let errorNumber = errno
            if retryOnInterrupt && errorNumber == EINTR { continue }
            throw SystemError(
                call: call, path: path, errorNumber: errorNumber,
                kind: kind(of: errorNumber, deviceIsOpen: deviceIsOpen), detail: detail)
        }
    }

    /// Checks a result of the "errno value returned" convention (pthread,
    /// posix_spawn): 0 is success, anything else the errno.
    public static func errnoValue(
        _ result: Int32, call: String, path: String? = nil, detail: String? = nil
    ) throws(SystemError) {
        guard result != 0 else { return }
        throw SystemError(call: call, path: path, errorNumber: result, detail: detail)
    }

    /// Checks a result of the "negative errno" convention (libevdev,
    /// libudev); returns the result when it is not negative.
    @discardableResult
    public static func checkNegativeErrno(
        _ result: Int32, call: String, path: String?, deviceIsOpen: Bool = false, detail: String? = nil
    ) throws(SystemError) -> Int32 {
        guard result < 0 else { return result }
        // -Int32.min would trap; no real errno is that large.
        let errorNumber = result == Int32.min ? Int32.max : -result
        throw SystemError(
            call: call, path: path, errorNumber: errorNumber,
            kind: kind(of: errorNumber, deviceIsOpen: deviceIsOpen), detail: detail)
    }

    /// Checks a pointer result of the "NULL and errno" convention; an errno
    /// of 0 (some libudev paths fail without setting it) becomes ENOMEM.
    public static func checkNull<Pointer>(
        call: String, path: String?, _ body: () -> Pointer?
    ) throws(SystemError) -> Pointer {
        errno = 0
        if let result = body() { return result }
        let errorNumber = errno != 0 ? errno : ENOMEM
        throw SystemError(call: call, path: path, errorNumber: errorNumber)
    }

    /// Runs `body`, a call that returns `nil` both for "nothing there" and
    /// for a failure told only by errno (`udev_monitor_receive_device`):
    /// `nil` with errno 0, EAGAIN or EINTR is "nothing"; another errno is thrown.
    public static func optionalResult<Pointer>(
        call: String, path: String?, _ body: () -> Pointer?
    ) throws(SystemError) -> Pointer? {
        errno = 0
        if let result = body() { return result }
        let errorNumber = errno
        if errorNumber == 0 || errorNumber == EAGAIN || errorNumber == EWOULDBLOCK || errorNumber == EINTR {
            return nil
        }
        throw SystemError(call: call, path: path, errorNumber: errorNumber)
    }

    /// ENODEV on a device that was already open means it went away; before
    /// that, errno values keep their usual meaning.
    public static func kind(of errorNumber: Int32, deviceIsOpen: Bool) -> SystemError.Kind {
        deviceIsOpen && errorNumber == ENODEV ? .deviceVanished : SystemError.defaultKind(of: errorNumber)
    }
}
