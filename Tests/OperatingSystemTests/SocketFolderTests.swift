import Glibc
import Testing
import TestSupport

@testable import OperatingSystem

extension SocketAccessTests {
/// The socket's folders from `/` down (issue 36): every one must be root's
/// or the daemon user's and closed to others (or sticky), another user's
/// link is not followed, and the socket is made in the folder checked, held
/// open, whatever is renamed or linked at its path afterwards. Nested in
/// the serialized socket access suite: binding with an access sets the
/// process's umask for a moment, which that suite checks is put back.
@Suite("Socket folder chain")
struct SocketFolderTests {
    /// Makes the folder `path` with exactly `mode` (whatever the umask).
    static func makeFolder(_ path: String, _ mode: mode_t) {
        #expect(mkdir(path, 0o700) == 0, "mkdir \(path)")
        #expect(chmod(path, mode) == 0, "chmod \(path)")
    }

    /// A fresh folder and its path with links resolved (as the chain names it).
    static func temporary() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder(prefix: "gesturectl-chain-test")
        return (folder, try #require(Paths.realPath(folder.path)))
    }

    @Test("A folder above the socket's that its group may write without the sticky bit is refused, and named; sticky, it passes")
    func groupWritableAncestor() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let shared = base + "/shared"
        Self.makeFolder(shared, 0o775)
        let own = shared + "/own"
        Self.makeFolder(own, 0o700)
        let user = UserGroups.effectiveUserID
        #expect(throws: UnsafeSocketFolder(folder: shared, problem: .writableByOthers(permissions: 0o775), user: user)) {
            try UnixSocket.checkFolder(of: own + "/d.sock", user: user)
        }
        // Sticky and everyone's, as /tmp: only a file's owner may rename or remove it.
        #expect(chmod(shared, 0o1777) == 0)
        let folder = try UnixSocket.openFolder(of: own + "/d.sock", user: user)
        #expect(folder.path == own)
        #expect(folder.name == "d.sock")
        let listening = try UnixSocket.listen(in: folder, access: SocketAccess(permissions: 0o600, group: nil))
        defer { listening.close() }
        let status = try Paths.status(own + "/d.sock", followLinks: false)
        #expect(status.type == .socket && status.permissions == 0o600)
        try UnixSocket.connect(to: own + "/d.sock").close()
    }

    @Test("A link of the user's own is followed, and the folders it leads to are checked and named")
    func ownLinkIsFollowedAndItsTargetChecked() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let open = base + "/open"
        Self.makeFolder(open, 0o777)
        let target = open + "/target"
        Self.makeFolder(target, 0o700)
        #expect(symlink("open/target", base + "/link") == 0)
        let user = UserGroups.effectiveUserID
        #expect(throws: UnsafeSocketFolder(folder: open, problem: .writableByOthers(permissions: 0o777), user: user)) {
            try UnixSocket.checkFolder(of: base + "/link/d.sock", user: user)
        }
        #expect(chmod(open, 0o755) == 0)
        // "..", and a link to a link.
        #expect(symlink(base + "/link", base + "/again") == 0)
        // again/.. is the folder above where again leads (open), not base.
        let folder = try UnixSocket.openFolder(of: base + "/again/../target/./d.sock", user: user)
        #expect(folder.path == target)
    }

    @Test("Root's link /var/run to /run is followed", .enabled(if: (try? Paths.status("/var/run", followLinks: false))?.type == .symbolicLink, "/var/run is not a link here"))
    func varRun() throws {
        let folder = try UnixSocket.openFolder(of: "/var/run/gesturectl-test.sock", user: 0)
        #expect(folder.path == Paths.realPath("/var/run"))
    }

    @Test("A folder swapped for a link after the check: the socket is still made, and the stale one removed, in the folder checked")
    func swappedAfterTheCheck() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let checked = base + "/checked"
        Self.makeFolder(checked, 0o700)
        let elsewhere = base + "/elsewhere"
        Self.makeFolder(elsewhere, 0o700)
        // A stale socket in each.
        try UnixSocket.listen(at: checked + "/d.sock").close()
        try UnixSocket.listen(at: elsewhere + "/d.sock").close()
        let elsewhereBefore = try Paths.status(elsewhere + "/d.sock", followLinks: false)

        let folder = try UnixSocket.openFolder(of: checked + "/d.sock")
        // The swap: the folder renamed away, a link to another in its place.
        #expect(rename(checked, base + "/moved") == 0)
        #expect(symlink(elsewhere, checked) == 0)
        let listening = try UnixSocket.listen(in: folder, access: SocketAccess(permissions: 0o600, group: nil))
        defer { listening.close() }

        // It listens in the folder checked, now named moved.
        try UnixSocket.connect(to: base + "/moved/d.sock").close()
        #expect(try Paths.status(base + "/moved/d.sock", followLinks: false).permissions == 0o600)
        // The link's target is as it was: its stale socket neither removed nor replaced.
        let elsewhereAfter = try Paths.status(elsewhere + "/d.sock", followLinks: false)
        #expect(elsewhereAfter.inode == elsewhereBefore.inode)
        #expect(throws: SystemError.self) { try UnixSocket.connect(to: elsewhere + "/d.sock").close() }
    }

    @Test("Without /proc the socket's address is the folder's path, checked again, and a folder swapped since is refused")
    func addressWithoutProc() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let checked = base + "/checked"
        Self.makeFolder(checked, 0o700)
        let folder = try UnixSocket.openFolder(of: checked + "/d.sock")
        #expect(try folder.address().hasPrefix("/proc/self/fd/"))
        #expect(try folder.address(throughProc: false) == checked + "/d.sock")
        // The same folder through the user's own link is still it.
        #expect(rename(checked, base + "/moved") == 0)
        #expect(symlink("moved", checked) == 0)
        #expect(try folder.address(throughProc: false) == base + "/moved/d.sock")
        // Another folder at its name is not.
        #expect(unlink(checked) == 0)
        Self.makeFolder(checked, 0o700)
        #expect(
            throws: SystemError(
                call: "bind", path: checked + "/d.sock", errorNumber: EAGAIN, detail: "the folder \(checked) was replaced after it was checked")
        ) {
            try folder.address(throughProc: false)
        }
        // Nor one that others may now write.
        #expect(rmdir(checked) == 0)
        Self.makeFolder(checked, 0o777)
        #expect(throws: SystemError.self) { try folder.address(throughProc: false) }
    }

    @Test("A folder that is not there passes the check, and listen names it")
    func missingFolder() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let folder = try UnixSocket.openFolder(of: base + "/missing/deeper/d.sock")
        #expect(throws: SystemError(call: "open", path: base + "/missing", errorNumber: ENOENT)) {
            try UnixSocket.listen(in: folder, access: SocketAccess(permissions: 0o600, group: nil))
        }
    }

    @Test(
        "Another user's link on the way is not followed; the same link of root's is",
        .enabled(if: geteuid() == 0, "needs root to give a link to another user (uid 65534)"))
    func foreignLinkIsRefused() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let target = base + "/target"
        Self.makeFolder(target, 0o700)
        let link = base + "/link"
        #expect(symlink(target, link) == 0)
        #expect(lchown(link, 65_534, 65_534) == 0)
        #expect(throws: UnsafeSocketFolder(folder: link, problem: .foreignLink(owner: 65_534), user: 0)) {
            try UnixSocket.checkFolder(of: link + "/d.sock", user: 0)
        }
        #expect((try? Paths.status(target + "/d.sock", followLinks: false)) == nil)
        #expect(lchown(link, 0, 0) == 0)
        #expect(try UnixSocket.openFolder(of: link + "/d.sock", user: 0).path == target)
    }

    @Test(
        "A parent of another user's is refused, though the socket's own folder is root's",
        .enabled(if: geteuid() == 0, "needs root to give a folder to another user (uid 65534)"))
    func foreignParentIsRefused() throws {
        let (temporary, base) = try Self.temporary()
        defer { withExtendedLifetime(temporary) {} }
        let other = base + "/other"
        Self.makeFolder(other, 0o755)
        let mine = other + "/mine"
        Self.makeFolder(mine, 0o700)
        #expect(chown(other, 65_534, 65_534) == 0)
        #expect(throws: UnsafeSocketFolder(folder: other, problem: .foreignOwner(65_534), user: 0)) {
            try UnixSocket.checkFolder(of: mine + "/d.sock", user: 0)
        }
        // The user's own folder is fine for them.
        #expect(try UnixSocket.openFolder(of: mine + "/d.sock", user: 65_534).path == mine)
    }
}
}
