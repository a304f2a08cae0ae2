import DaemonTransport
import GestureBindings
@testable import GestureDaemon
import GestureProtocol
import GestureFormat
import OperatingSystem
import Synchronization
import Testing

@Suite("Events nobody hears")
struct BroadcastTests {
    @Test("An event no client is subscribed to is not made: a play's `queued` and `running` cost nothing before its first frame")
    func unheardEventIsNotMade() throws {
        let (listening, other) = try FileDescriptor.pipe()
        defer { other.close() }
        let server = try SocketServer(
            listening: listening, createdSocketPath: nil, limits: ClientLimits(), log: DaemonLog(journal: false, minimum: .error))
        let made = Atomic<Int>(0)
        func fields() -> [(String, JSONValue)] {
            made.add(1, ordering: .relaxed)
            return [("job", .integer(1))]
        }
        server.broadcast(.job, fields())
        #expect(made.load(ordering: .relaxed) == 0)
        listening.close()
    }
}
