import Glibc
import Testing
import TestSupport

@testable import OperatingSystem

@Suite("Unix sockets")
struct UnixSocketTests {
    @Test("A client connects, the server accepts it, bytes go both ways, and the peer is who the kernel says")
    func connectAcceptTalk() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("s.sock")
        let listening = try UnixSocket.listen(at: path)
        defer { listening.close() }
        // Nobody waiting: accept does not block.
        #expect(try UnixSocket.accept(listening) == nil)
        // Closed by the test below (a descriptor closed twice could be another test's by then).
        let client = try UnixSocket.connect(to: path)
        #expect(try Poll.waitReadable(listening, timeoutMilliseconds: nil))
        let server = try #require(try UnixSocket.accept(listening))
        defer { server.close() }
        #expect(try UnixSocket.accept(listening) == nil)

        try client.writeAll(Array("ping\n".utf8))
        #expect(try server.read(upTo: 16) == Array("ping\n".utf8))
        try server.writeAll(Array("pong\n".utf8))
        #expect(try client.read(upTo: 16) == Array("pong\n".utf8))

        let peer = try UnixSocket.peer(of: server)
        #expect(peer.processID == getpid())
        #expect(peer.userID == getuid())
        #expect(peer.groupID == getgid())
        #expect(peer.isRootOrMember(of: nil) == (getuid() == 0))
        // The client closing is an end of file at the server.
        client.close()
        #expect(try server.read(upTo: 16) == [])
    }

    @Test("Membership: root always; otherwise the primary or a supplementary group")
    func membership() {
        let user = PeerCredentials(processID: 1, userID: 1000, groupID: 100, supplementaryGroups: [27, 999])
        #expect(user.isRootOrMember(of: 100))
        #expect(user.isRootOrMember(of: 999))
        #expect(!user.isRootOrMember(of: 5))
        #expect(!user.isRootOrMember(of: nil))
        #expect(PeerCredentials(processID: 1, userID: 0, groupID: 0, supplementaryGroups: []).isRootOrMember(of: 5))
    }

    @Test("A stale socket file is replaced; a live server's is refused with EADDRINUSE")
    func staleAndLive() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("s.sock")
        let first = try UnixSocket.listen(at: path)
        #expect(throws: SystemError(call: "bind", path: path, errorNumber: EADDRINUSE, detail: "another server listens on it")) {
            try UnixSocket.listen(at: path)
        }
        first.close()
        // Nobody listens on the file now: connecting is refused, listening replaces it.
        #expect(throws: SystemError(call: "connect", path: path, errorNumber: ECONNREFUSED)) {
            try UnixSocket.connect(to: path)
        }
        let second = try UnixSocket.listen(at: path)
        defer { second.close() }
        let client = try UnixSocket.connect(to: path)
        client.close()
    }

    @Test("A socket file that cannot be tried is kept and the reason thrown, not taken for stale")
    func untriedSocketIsKept() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("s.sock")
        try UnixSocket.listen(at: path).close()
        let noDescriptor = SystemError(call: "socket", path: path, errorNumber: EMFILE)
        #expect(throws: noDescriptor) {
            try UnixSocket.removeStaleSocket(at: path) { _ throws(SystemError) -> FileDescriptor in throw noDescriptor }
        }
        #expect((try? Paths.status(path, followLinks: false))?.type == .socket)
        // Refused: stale, removed.
        try UnixSocket.removeStaleSocket(at: path)
        #expect((try? Paths.status(path, followLinks: false)) == nil)
    }

    @Test("Something that is not a socket is never removed to listen")
    func notASocketIsKept() throws {
        let folder = try TemporaryFolder()
        try folder.write("file", "keep me")
        #expect(throws: SystemError(call: "bind", path: folder.file("file"), errorNumber: EEXIST, detail: "it exists and is not a socket")) {
            try UnixSocket.listen(at: folder.file("file"))
        }
        #expect(try folder.read("file") == "keep me")
    }

    @Test("Connecting where nothing is: ENOENT, naming the path")
    func nothingThere() throws {
        let folder = try TemporaryFolder()
        #expect(throws: SystemError(call: "connect", path: folder.file("none.sock"), errorNumber: ENOENT)) {
            try UnixSocket.connect(to: folder.file("none.sock"))
        }
    }

    @Test("A packet pair keeps each write whole, as one read")
    func packetPairKeepsMessages() throws {
        let (one, other) = try UnixSocket.packetPair()
        defer { one.close(); other.close() }
        try one.writeAll([1, 2, 3])
        try one.writeAll([4])
        #expect(try other.read(upTo: 64) == [1, 2, 3])
        #expect(try other.read(upTo: 64) == [4])
    }

    @Test("sendAvailable writes what fits, 0 when the socket is full, and EPIPE once the peer has gone")
    func sendAvailable() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("s.sock")
        let listening = try UnixSocket.listen(at: path)
        defer { listening.close() }
        let client = try UnixSocket.connect(to: path)
        #expect(try Poll.waitReadable(listening, timeoutMilliseconds: nil))
        let server = try #require(try UnixSocket.accept(listening))
        defer { server.close() }
        let chunk = [UInt8](repeating: 7, count: 65_536)
        var total = 0
        // Nobody reads: the buffers fill, and then nothing more is taken (no blocking).
        while true {
            let sent = try chunk.withUnsafeBytes { buffer throws(SystemError) in try UnixSocket.sendAvailable(server, buffer) }
            if sent == 0 { break }
            total += sent
        }
        #expect(total > 0)
        #expect(try chunk.withUnsafeBytes { buffer throws(SystemError) in try UnixSocket.sendAvailable(server, UnsafeRawBufferPointer(rebasing: buffer[0..<0])) } == 0)
        client.close()
        do {
            _ = try chunk.withUnsafeBytes { buffer throws(SystemError) in try UnixSocket.sendAvailable(server, buffer) }
            Issue.record("a send to a closed peer succeeded")
        } catch let error as SystemError {
            #expect([EPIPE, ECONNRESET].contains(error.errorNumber), "\(error)")
        }
    }
}

@Suite("ByteSearch: the one newline search")
struct ByteSearchTests {
    @Test("Finds the first byte at or after the start; nil past the end, before the start or when absent")
    func bounds() {
        let bytes: [UInt8] = Array("ab\ncd\n".utf8)
        #expect(ByteSearch.newline(in: bytes, from: 0) == 2)
        #expect(ByteSearch.newline(in: bytes, from: 3) == 5)
        #expect(ByteSearch.newline(in: bytes, from: 6) == nil)
        #expect(ByteSearch.newline(in: bytes, from: -1) == nil)
        #expect(ByteSearch.newline(in: [], from: 0) == nil)
        #expect(ByteSearch.firstIndex(of: UInt8(ascii: "d"), in: bytes, from: 0) == 4)
        #expect(ByteSearch.firstIndex(of: UInt8(ascii: "z"), in: bytes, from: 0) == nil)
    }
}
