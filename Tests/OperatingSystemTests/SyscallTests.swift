import Glibc
import Synchronization
import Testing
import TestSupport

@testable import OperatingSystem

/// The funnels' EINTR handling: a call a signal interrupted is made again,
/// unless the caller asked to see the interruption.
@Suite("Retrying after EINTR")
struct SyscallTests {
    /// A call that fails with each of `errors` in turn (-1 and errno), then returns `result`.
    final class ScriptedCall {
        var errors: [Int32]
        let result: Int32
        private(set) var calls = 0
        init(failingWith errors: [Int32], then result: Int32) {
            self.errors = errors
            self.result = result
        }
        func callAsFunction() -> Int32 {
            calls += 1
            guard !errors.isEmpty else { return result }
            errno = errors.removeFirst()
            return -1
        }
    }

    @Test("minusOne calls again after EINTR, as often as it comes, and returns the result")
    func retriesAfterInterrupt() throws {
        let call = ScriptedCall(failingWith: [EINTR, EINTR, EINTR], then: 7)
        #expect(try Syscall.minusOne("read") { call() } == 7)
        #expect(call.calls == 4)
    }

    @Test("minusOne throws another errno at once, naming the call and the path")
    func otherErrorsAreThrown() {
        let call = ScriptedCall(failingWith: [EIO, EINTR], then: 7)
        #expect(throws: SystemError(call: "read", path: "/dev/x", errorNumber: EIO)) {
            try Syscall.minusOne("read", path: "/dev/x") { call() }
        }
        #expect(call.calls == 1)
    }

    @Test("With retryOnInterrupt false, EINTR is thrown for the caller to handle")
    func interruptSeenWhenAsked() {
        let call = ScriptedCall(failingWith: [EINTR], then: 7)
        #expect(throws: SystemError(call: "poll", errorNumber: EINTR)) {
            try Syscall.minusOne("poll", retryOnInterrupt: false) { call() }
        }
        #expect(call.calls == 1)
    }

    @Test("A call that returns nothing for EINTR reports nothing; another errno is thrown")
    func optionalResult() throws {
        errno = 0
        #expect(try Syscall.optionalResult(call: "receive", path: nil) { () -> Int? in errno = EINTR; return nil } == nil)
        #expect(try Syscall.optionalResult(call: "receive", path: nil) { () -> Int? in errno = EAGAIN; return nil } == nil)
        #expect(throws: SystemError(call: "receive", path: "p", errorNumber: ENOBUFS)) {
            try Syscall.optionalResult(call: "receive", path: "p") { () -> Int? in errno = ENOBUFS; return nil }
        }
    }

    @Test("A read a signal interrupts goes on and returns what arrives after")
    func interruptedReadGoesOn() throws {
        let pipe = try FileDescriptor.pipe()
        defer { pipe.read.close() }
        let reader = pipe.read
        let writer = pipe.write
        // The reader blocks until the bytes come; the signals sent meanwhile
        // interrupt its read(2), which the funnel makes again.
        let read = Mutex<[UInt8]?>(nil)
        let done = try TestEvent()
        installInterruptingHandler()
        let thread = Mutex<pthread_t?>(nil)
        let started = try TestEvent()
        try DedicatedThread.start(ThreadOptions(name: "os-test-read")) {
            try? SignalMask.unblock([interruptingSignal])
            thread.withLock { $0 = pthread_self() }
            started.signal()
            let bytes = try? reader.read(upTo: 16)
            read.withLock { $0 = bytes }
            done.signal()
        }
        #expect(try started.wait())
        let target = try #require(thread.withLock { $0 })
        for _ in 0..<20 {
            _ = pthread_kill(target, interruptingSignal)
            #expect(try done.wait(within: 0.005) == false, "the read ended before any bytes were written")
        }
        try writer.writeAll([1, 2, 3])
        writer.close()
        #expect(try done.wait())
        #expect(read.withLock { $0 } == [1, 2, 3])
    }
}
