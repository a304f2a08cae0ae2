import DaemonTestSupport
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureLibrary
import GestureModel
import GesturePlayback
import Glibc
import OperatingSystem
import Synchronization
import Testing
import TestSupport

@testable import GestureEngine

/// The daemon's lifecycle as a service (what `gesturectl daemon` runs):
/// its socket, readiness, SIGHUP and SIGTERM, with test doubles for devices.
@Suite("Daemon service", .serialized)
struct DaemonServiceTests {
    /// A service over the harness's fake devices (``DaemonDoubles``), whose log is collected.
    final class Rig: Sendable {
        let collected = DaemonDoubles()
        let signals = SignalRouter(unhandled: { _ in })
        let service: DaemonService

        init(
            socket: String, configuration: String,
            notify: @escaping @Sendable (String) throws -> Bool = { state in try ServiceManager.notify(state) }
        ) {
            let bytes = Array(configuration.utf8)
            service = DaemonService(
                options: DaemonService.Options(
                    socket: socket, configuration: "daemon.json", environment: [:],
                    userLibrary: GestureLibrary(userDirectory: UnixSocket.folder(of: socket) + "/library", builtinDirectory: nil),
                    version: "test", readFile: { _ in bytes }, notify: notify),
                engine: Engine(devices: collected.factory()), log: collected.log, isRoot: false)
        }

        var log: [String] { collected.logLines.withLock { $0 } }

        /// Waits for a log line containing `text`, woken by each line logged
        /// (no sleep in a loop), on a thread of its own: the service runs on
        /// the cooperative pool, which a blocking wait must not hold. The
        /// bound is 2 minutes of wall time: while other suites' synchronous
        /// tests hold the pool's threads (the manual pages' renderings), the
        /// service does not run at all (a 20 s bound failed so in a full run).
        func waitForLine(_ text: String) async throws {
            let event = try TestEvent()
            collected.logged.withLock { $0 = event }
            defer { collected.logged.withLock { $0 = nil } }
            let found = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                do {
                    try DedicatedThread.start(ThreadOptions(name: "test-log-wait")) { [self] in
                        continuation.resume(returning: (try? event.wait(within: 120, until: { log.contains { $0.contains(text) } })) ?? false)
                    }
                } catch {
                    continuation.resume(returning: log.contains { $0.contains(text) })
                }
            }
            // Looked at once more: past the bound, the line may have come
            // between the wait's last look and now (a starved pool's service
            // logs late, not never).
            if !found && !log.contains(where: { $0.contains(text) }) {
                Issue.record("no log line with \"\(text)\" in \(log)")
            }
        }
    }

    /// The name of the process's own group, which it may give its files.
    static var ownGroupName: String { String(cString: getgrgid(getegid())!.pointee.gr_name) }

    @Test("Ready, served, reloaded by SIGHUP, stopped by SIGTERM; the socket is born 0660 with the group and removed")
    func lifecycle() async throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-service-test")
        defer { withExtendedLifetime(folder) {} }
        let socket = folder.file("d.sock")
        let rig = Rig(socket: socket, configuration: "{\"group\": \"\(Self.ownGroupName)\", \"devices\": [\"touchscreen\"]}")
        let running = Task { try await rig.service.run(signals: rig.signals) }
        try await rig.waitForLine("ready: listening on \(socket), devices touchscreen")
        let status = try Paths.status(socket, followLinks: false)
        #expect(status.type == .socket)
        #expect(status.permissions == 0o660)
        #expect(status.groupID == UInt32(getegid()))
        let client = try DaemonClient(path: socket)
        #expect(try client.call("version")["protocol"] == .integer(1))

        rig.signals.deliver(SignalMask.hangUp)
        try await rig.waitForLine("configuration reloaded")
        rig.signals.deliver(SIGTERM)
        try await running.value
        #expect(rig.log.contains { $0.contains("SIGTERM: stopping") })
        #expect(rig.log.contains { $0.contains("stopped") })
        #expect(!folder.exists("d.sock"))
    }

    @Test("A service manager that cannot be told the daemon is ready or stopping: the log says so, and the daemon serves")
    func notifyFails() async throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-service-test")
        defer { withExtendedLifetime(folder) {} }
        let socket = folder.file("d.sock")
        let rig = Rig(
            socket: socket, configuration: "{\"group\": \"\(Self.ownGroupName)\", \"devices\": [\"touchscreen\"]}",
            notify: { _ in throw SystemError(call: "sendto", path: "/run/systemd/notify", errorNumber: ECONNREFUSED) })
        let running = Task { try await rig.service.run(signals: rig.signals) }
        try await rig.waitForLine("cannot tell the service manager the daemon is ready (")
        #expect(try DaemonClient(path: socket).call("version")["protocol"] == .integer(1))
        rig.signals.deliver(SIGTERM)
        try await running.value
        #expect(rig.log.contains { $0.contains("cannot tell the service manager the daemon is stopping (") && $0.contains("sendto") })
    }

    @Test("A socket folder everyone can write is refused before anything is made")
    func refusesAnOpenFolder() async throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-service-test")
        defer { withExtendedLifetime(folder) {} }
        #expect(chmod(folder.path, 0o777) == 0)
        let rig = Rig(socket: folder.file("d.sock"), configuration: "{}")
        await #expect(throws: UnsafeSocketFolder(folder: folder.path, problem: .writableByOthers(permissions: 0o777), user: UserGroups.effectiveUserID)) {
            try await rig.service.run(signals: rig.signals)
        }
        #expect(!folder.exists("d.sock"))
        #expect(rig.collected.made.load(ordering: .relaxed) == 0)
    }
}
