import Testing

@testable import OperatingSystem

@Suite struct CancellationSignalTests {
    private func isReadable(_ descriptor: FileDescriptor) -> Bool {
        (try? Poll.waitReadable(descriptor, timeoutMilliseconds: 0)) == true
    }

    @Test func cancelSetsTheFlagAndWakesPollers() throws {
        let signal = CancellationSignal()
        #expect(throws: Never.self) { try signal.fileDescriptor }
        #expect(!signal.isCancelled)
        #expect(try !isReadable(signal.fileDescriptor))
        signal.cancel()
        signal.cancel()
        #expect(signal.isCancelled)
        // It stays readable: every later wait returns at once.
        #expect(try isReadable(signal.fileDescriptor))
        #expect(try isReadable(signal.fileDescriptor))
    }
}
