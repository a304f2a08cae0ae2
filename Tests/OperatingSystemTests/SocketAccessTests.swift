import Glibc
import Testing
import TestSupport

@testable import OperatingSystem

/// The daemon's socket file: the folders it is refused in, and a mode and
/// group it is born with, never given to what a link points at. Serialized:
/// a bind with an access sets the process's umask for a moment.
@Suite("Socket access", .serialized)
struct SocketAccessTests {
    @Test("A folder others can write without the sticky bit, or another user's folder, is refused")
    func folderRules() {
        func problem(_ permissions: UInt32, owner: UInt32 = 0, user: UInt32 = 0) -> UnsafeSocketFolder.Problem? {
            UnsafeSocketFolder.check(folder: "/f", permissions: permissions, owner: owner, user: user)?.problem
        }
        #expect(problem(0o755) == nil)
        #expect(problem(0o700, owner: 1000, user: 1000) == nil)
        #expect(problem(0o1777) == nil)  // /tmp: only a file's owner may rename or remove it
        #expect(problem(0o1770) == nil)
        #expect(problem(0o777) == .writableByOthers(permissions: 0o777))
        #expect(problem(0o775) == .writableByOthers(permissions: 0o775))
        #expect(problem(0o2773) == .writableByOthers(permissions: 0o2773))
        #expect(problem(0o755, owner: 1000, user: 0) == .foreignOwner(1000))
        #expect(problem(0o700, owner: 1001, user: 1000) == .foreignOwner(1001))
        #expect(problem(0o1777, owner: 1001, user: 1000) == .foreignOwner(1001))
    }

    @Test("The refusal names the folder, what is wrong and what to use")
    func refusalMessage() {
        let open = UnsafeSocketFolder(folder: "/srv/s", problem: .writableByOthers(permissions: 0o777), user: 0)
        #expect(
            open.description
                == "refusing to create the socket in /srv/s: the folder is writable by everyone (mode 0777) and not sticky,"
                + " so another user could replace the socket; use a folder that only root or the daemon's user can write,"
                + " such as /run/gesturectl or $XDG_RUNTIME_DIR")
        let group = UnsafeSocketFolder(folder: "/srv/s", problem: .writableByOthers(permissions: 0o2775), user: 0)
        #expect(group.description.contains("writable by its group (mode 2775)"))
        let foreign = UnsafeSocketFolder(folder: "/home/eve", problem: .foreignOwner(1001), user: 0)
        #expect(foreign.description.contains("/home/eve: the folder belongs to uid 1001, neither root nor the daemon's user (uid 0)"))
    }

    @Test("The folder of a socket path")
    func folderOfPath() {
        #expect(UnixSocket.folder(of: "/run/gesturectl/gesturectl.sock") == "/run/gesturectl")
        #expect(UnixSocket.folder(of: "/g.sock") == "/")
        #expect(UnixSocket.folder(of: "g.sock") == ".")
        #expect(UnixSocket.folder(of: "sub/g.sock") == "sub")
    }

    @Test("checkFolder reads the real folder: its mode, its sticky bit and (as root) its owner")
    func checkRealFolder() throws {
        let temporary = try TemporaryFolder(prefix: "gesturectl-socket-test")
        defer { withExtendedLifetime(temporary) {} }
        let path = temporary.file("d.sock")
        let user = UserGroups.effectiveUserID
        try UnixSocket.checkFolder(of: path, user: user)
        // A folder that is not there is left for bind to report.
        try UnixSocket.checkFolder(of: temporary.file("missing/d.sock"), user: user)
        #expect(chmod(temporary.path, 0o777) == 0)
        #expect(throws: UnsafeSocketFolder(folder: temporary.path, problem: .writableByOthers(permissions: 0o777), user: user)) {
            try UnixSocket.checkFolder(of: path, user: user)
        }
        #expect(chmod(temporary.path, 0o1777) == 0)
        try UnixSocket.checkFolder(of: path, user: user)
        #expect(chmod(temporary.path, 0o700) == 0)
        // Another user's folder (root's is everyone's to use).
        if user != 0 {
            #expect(throws: UnsafeSocketFolder(folder: temporary.path, problem: .foreignOwner(user), user: user &+ 1)) {
                try UnixSocket.checkFolder(of: path, user: user &+ 1)
            }
        } else {
            #expect(chown(temporary.path, 61_234, 61_234) == 0)
            #expect(throws: UnsafeSocketFolder(folder: temporary.path, problem: .foreignOwner(61_234), user: 0)) {
                try UnixSocket.checkFolder(of: path, user: 0)
            }
        }
    }

    @Test("The socket is born with the mode asked for, whatever the umask, and with the group")
    func bornWithModeAndGroup() throws {
        let temporary = try TemporaryFolder(prefix: "gesturectl-socket-test")
        defer { withExtendedLifetime(temporary) {} }
        let group = try Self.otherGroup()
        for (name, access) in [("a.sock", SocketAccess(permissions: 0o660, group: group)), ("b.sock", SocketAccess(permissions: 0o600, group: nil))] {
            let path = temporary.file(name)
            let listening = try UnixSocket.listen(in: try UnixSocket.openFolder(of: path), access: access)
            defer { listening.close() }
            let status = try Paths.status(path, followLinks: false)
            #expect(status.type == .socket)
            #expect(status.permissions == access.permissions, "\(name)")
            if let group = access.group { #expect(status.groupID == group, "\(name)") }
            // It listens: a client connects.
            try UnixSocket.connect(to: path).close()
        }
        // The umask is the process's again. Read, not set and put back:
        // that pair beside another test's bind could leave bind's mask for
        // good.
        let file = try FileDescriptor.open("/proc/self/status", .readOnly)
        defer { file.close() }
        let status = try file.read(upTo: 1 << 16) ?? []
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let mask = line.flatMap { UInt32($0.dropFirst("Umask:".count).trimmingPrefix(while: \.isWhitespace), radix: 8) }
        #expect(mask != nil && mask != 0o117 && mask != 0o177, "\(line ?? "no Umask line")")
    }

    @Test("What bind could not set is set on the socket file itself, and a link there is refused and left alone")
    func settlesThroughTheFileNotThePath() throws {
        let temporary = try TemporaryFolder(prefix: "gesturectl-socket-test")
        defer { withExtendedLifetime(temporary) {} }
        let group = try Self.otherGroup()
        // A socket made by a plain bind (mode from the umask, the process's
        // group), as bind leaves it when it could not take the group.
        let path = temporary.file("s.sock")
        let plain = try UnixSocket.listen(at: path)
        defer { plain.close() }
        try UnixSocket.settleAccess(in: try UnixSocket.openFolder(of: path), access: SocketAccess(permissions: 0o660, group: group))
        let settled = try Paths.status(path, followLinks: false)
        #expect(settled.permissions == 0o660)
        #expect(settled.groupID == group)

        // The race: the socket swapped for a link to a private file.
        let target = temporary.file("secret")
        try temporary.write("secret", "only root reads this\n")
        #expect(chmod(target, 0o600) == 0)
        let before = try Paths.status(target)
        let link = temporary.file("l.sock")
        try FileSystem.makeSymbolicLink(link, to: target)
        #expect(throws: SystemError.self) {
            try UnixSocket.settleAccess(in: try UnixSocket.openFolder(of: link), access: SocketAccess(permissions: 0o666, group: group))
        }
        let after = try Paths.status(target)
        #expect(after.permissions == 0o600)
        #expect(after.groupID == before.groupID)
        #expect(after.userID == before.userID)
        #expect(try temporary.read("secret") == "only root reads this\n")
        // listen at a link refuses it (not a socket) and leaves the target too.
        let linkFolder = try UnixSocket.openFolder(of: link)
        #expect(throws: SystemError.self) { _ = try UnixSocket.listen(in: linkFolder, access: SocketAccess(permissions: 0o666, group: group)) }
        #expect(try Paths.status(target).permissions == 0o600)
        #expect(try Paths.status(link, followLinks: false).type == .symbolicLink)
    }

    @Test("A socket of another user at the path is not changed")
    func anotherUsersSocketIsRefused() throws {
        guard UserGroups.effectiveUserID == 0 else { return }  // only root can make one
        let temporary = try TemporaryFolder(prefix: "gesturectl-socket-test")
        defer { withExtendedLifetime(temporary) {} }
        let path = temporary.file("s.sock")
        let plain = try UnixSocket.listen(at: path)
        defer { plain.close() }
        #expect(chown(path, 61_234, 61_234) == 0)
        #expect(chmod(path, 0o600) == 0)
        let folder = try UnixSocket.openFolder(of: path)
        #expect(throws: SystemError.self) { try UnixSocket.settleAccess(in: folder, access: SocketAccess(permissions: 0o666, group: 0)) }
        let status = try Paths.status(path, followLinks: false)
        #expect(status.permissions == 0o600 && status.groupID == 61_234)
    }

    /// A group the process may give a file and that is not its own
    /// file-system group: any id for root, else a supplementary group
    /// (else its own group, which still checks the mode).
    static func otherGroup() throws -> UInt32 {
        if UserGroups.effectiveUserID == 0 { return 61_235 }
        var groups = [UInt32](repeating: 0, count: 256)
        let count = groups.withUnsafeMutableBufferPointer { getgroups(Int32($0.count), $0.baseAddress) }
        return groups.prefix(max(0, Int(count))).first { $0 != getegid() } ?? getegid()
    }
}
