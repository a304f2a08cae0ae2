import Glibc
import Testing

@testable import InputSystem
import OperatingSystem

@Suite struct CancellationSignalTests {
    private func isReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    @Test func cancelSetsTheFlagAndWakesPollers() {
        let signal = CancellationSignal()
        #expect(signal.fileDescriptor >= 0)
        #expect(!signal.isCancelled)
        #expect(!isReadable(signal.fileDescriptor))
        signal.cancel()
        signal.cancel()
        #expect(signal.isCancelled)
        // It stays readable: every later wait returns at once.
        #expect(isReadable(signal.fileDescriptor))
        #expect(isReadable(signal.fileDescriptor))
    }
}
