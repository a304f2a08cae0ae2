import Glibc
import Synchronization
import Testing
import TestSupport

@testable import OperatingSystem

/// The sd_notify and socket-activation protocols, spoken without
/// libsystemd: what systemd's manager receives and what a socket-activated
/// process takes. Each test gives its own environment: setting the
/// process's would race with every other test's reads.
@Suite("Service manager protocols")
struct ServiceManagerTests {
    /// A datagram socket bound to `name` (a path, or an abstract name
    /// without its NUL when `abstract`), as systemd's notify socket is.
    static func receiver(_ name: String, abstract: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index + (abstract ? 1 : 0)] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + 1
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        try #require(bound == 0, "bind: errno \(errno)")
        return descriptor
    }

    static func receive(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return count < 0 ? nil : String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// Runs `body` with an environment of `values` alone (nil: unset);
    /// `body` may look at what is left of it afterwards.
    static func withEnvironment(_ values: [String: String?], _ body: (ServiceManager.Environment, ScratchEnvironment) throws -> Void) throws {
        let variables = ScratchEnvironment(values.compactMapValues { $0 })
        try body(variables.environment, variables)
    }

    @Test("Without NOTIFY_SOCKET nothing is sent and nobody was told")
    func noManager() throws {
        try Self.withEnvironment(["NOTIFY_SOCKET": nil]) { environment, variables throws in
            #expect(try ServiceManager.notify("READY=1", environment: environment) == false)
        }
        try Self.withEnvironment(["NOTIFY_SOCKET": ""]) { environment, variables throws in
            #expect(try ServiceManager.notify("READY=1", environment: environment) == false)
        }
    }

    @Test("READY=1 and STATUS reach a socket at a path, as one datagram")
    func notifyPath() throws {
        let folder = try TemporaryFolder(prefix: "gesturectl-notify")
        let path = folder.path + "/notify.sock"
        let receiver = try Self.receiver(path, abstract: false)
        defer { close(receiver) }
        try Self.withEnvironment(["NOTIFY_SOCKET": path]) { environment, variables throws in
            #expect(try ServiceManager.notify("READY=1\nSTATUS=ready: 2 devices", environment: environment) == true)
        }
        #expect(Self.receive(receiver) == "READY=1\nSTATUS=ready: 2 devices")
    }

    @Test("An @name reaches the socket of that name in the abstract namespace")
    func notifyAbstract() throws {
        let name = "gesturectl-test-notify-\(getpid())"
        let receiver = try Self.receiver(name, abstract: true)
        defer { close(receiver) }
        try Self.withEnvironment(["NOTIFY_SOCKET": "@" + name]) { environment, variables throws in
            #expect(try ServiceManager.notify("STOPPING=1", environment: environment) == true)
        }
        #expect(Self.receive(receiver) == "STOPPING=1")
    }

    @Test("A NOTIFY_SOCKET that is neither a path nor @name, or where nobody listens, is an error naming it")
    func notifyErrors() throws {
        try Self.withEnvironment(["NOTIFY_SOCKET": "relative.sock"]) { environment, variables throws in
            let error = try #require(throws: SystemError.self) { try ServiceManager.notify("READY=1", environment: environment) }
            #expect(error.errorNumber == EINVAL)
            #expect(error.path == "relative.sock")
        }
        let folder = try TemporaryFolder(prefix: "gesturectl-notify")
        try Self.withEnvironment(["NOTIFY_SOCKET": folder.path + "/nobody.sock"]) { environment, variables throws in
            let error = try #require(throws: SystemError.self) { try ServiceManager.notify("READY=1", environment: environment) }
            #expect(error.errorNumber == ENOENT)
            #expect(error.description.contains("nobody.sock"))
        }
    }

    @Test("Sockets passed to another process, or none, are not taken; the variables are removed")
    func listenForAnotherProcess() throws {
        try Self.withEnvironment(["LISTEN_PID": String(getpid() + 1), "LISTEN_FDS": "1", "LISTEN_FDNAMES": "x"]) { environment, variables throws in
            #expect(try ServiceManager.listeningDescriptors(environment: environment).isEmpty)
            #expect(variables.names.isEmpty)
        }
        try Self.withEnvironment(["LISTEN_PID": nil, "LISTEN_FDS": "1"]) { environment, variables throws in
            #expect(try ServiceManager.listeningDescriptors(environment: environment).isEmpty)
        }
        try Self.withEnvironment(["LISTEN_PID": String(getpid()), "LISTEN_FDS": "0"]) { environment, variables throws in
            #expect(try ServiceManager.listeningDescriptors(environment: environment).isEmpty)
        }
    }

    @Test("Malformed LISTEN_PID or LISTEN_FDS is EINVAL naming the variable")
    func listenMalformed() throws {
        try Self.withEnvironment(["LISTEN_PID": "12x", "LISTEN_FDS": "1"]) { environment, variables throws in
            let error = try #require(throws: SystemError.self) { try ServiceManager.listeningDescriptors(environment: environment) }
            #expect(error.errorNumber == EINVAL)
            #expect(error.description.contains("LISTEN_PID=12x"))
        }
        try Self.withEnvironment(["LISTEN_PID": String(getpid()), "LISTEN_FDS": "-1"]) { environment, variables throws in
            let error = try #require(throws: SystemError.self) { try ServiceManager.listeningDescriptors(environment: environment) }
            #expect(error.errorNumber == EINVAL)
            #expect(error.description.contains("LISTEN_FDS=-1"))
        }
    }
}

/// A test's own environment, which ``ServiceManager`` reads and removes
/// from as it would the process's.
final class ScratchEnvironment: Sendable {
    private let variables: Mutex<[String: String]>

    init(_ variables: [String: String]) { self.variables = Mutex(variables) }

    /// The names still set.
    var names: [String] { variables.withLock { Array($0.keys) } }

    /// ``ServiceManager/Environment`` over these variables.
    var environment: ServiceManager.Environment {
        ServiceManager.Environment(
            value: { name in self.variables.withLock { $0[name] } },
            remove: { name in _ = self.variables.withLock { $0.removeValue(forKey: name) } })
    }
}
