import Foundation
import Testing
import TestSupport

/// The shipped systemd units and sysusers file, checked by systemd's own
/// tools: `systemd-analyze verify` (on a copy whose ExecStart names the
/// built binary: verify fails when the binary does not exist) and
/// `systemd-analyze security --offline`.
@Suite struct SystemdUnitsTests {
    static let folder = CLI.checkout + "/systemd"

    /// The units copied into `scratch`, ExecStart pointing at the built binary.
    private func copies(in scratch: TemporaryFolder) throws {
        let service = try String(contentsOfFile: Self.folder + "/gesturectl.service", encoding: .utf8)
        try scratch.write("gesturectl.service", service.replacingOccurrences(of: "/usr/bin/gesturectl", with: CLI.binary))
        try scratch.write("gesturectl.socket", try String(contentsOfFile: Self.folder + "/gesturectl.socket", encoding: .utf8))
    }

    private func analyze() throws -> String? {
        if let tool = ProcessRunner.path(of: "systemd-analyze") { return tool }
        if TestEnvironment.isContinuousIntegration { throw ProcessRunner.Failure("systemd-analyze is missing (package systemd)") }
        return nil
    }

    @Test("systemd-analyze verify accepts the socket and the service")
    func verify() throws {
        guard let tool = try analyze() else { return }
        let scratch = try TemporaryFolder()
        try copies(in: scratch)
        let outcome = try ProcessRunner.run(
            tool, ["verify", "gesturectl.socket", "gesturectl.service"], workingDirectory: scratch.path)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("gesturectl"), "\(outcome.standardError)")
    }

    @Test("The service is sandboxed: systemd-analyze security rates it OK or better (exposure below 2)")
    func security() throws {
        guard let tool = try analyze() else { return }
        let scratch = try TemporaryFolder()
        try copies(in: scratch)
        let outcome = try ProcessRunner.run(tool, ["security", "--offline=yes", scratch.file("gesturectl.service")])
        let line = outcome.standardOutput.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: " ").compactMap { Double($0) }.first
        #expect(score != nil && score! < 2.0, "\(line)")
    }

    /// The overall exposure `systemd-analyze security` gives the service file in `scratch`.
    private func exposure(_ tool: String, in scratch: TemporaryFolder) throws -> Double? {
        let outcome = try ProcessRunner.run(tool, ["security", "--offline=yes", scratch.file("gesturectl.service")])
        let line = outcome.standardOutput.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        return line.split(separator: " ").compactMap { Double($0) }.first
    }

    @Test(
        "The drop-in of daemon --write-dropin passes systemd-analyze verify and keeps the security score, for every output",
        arguments: [["uinput"], ["uinput", "uhid"], ["gadget"], ["uinput", "uhid", "gadget"]])
    func dropInKeepsTheScore(outputs: [String]) throws {
        guard let tool = try analyze() else { return }
        let scratch = try TemporaryFolder()
        try copies(in: scratch)
        let base = try exposure(tool, in: scratch)
        let words = outputs.map { "\"\($0)\"" }.joined(separator: ", ")
        try scratch.write("daemon.json", "{\"outputs\": [\(words)]}")
        let written = try CLI.run(
            ["daemon", "--write-dropin", "--config", scratch.file("daemon.json"), "--dropin-dir", scratch.file("gesturectl.service.d")])
        #expect(written.status == 0, "\(written.stderr)")
        let verified = try ProcessRunner.run(
            tool, ["verify", "gesturectl.socket", "gesturectl.service"], workingDirectory: scratch.path)
        #expect(verified.status == 0 && !verified.standardError.contains("gesturectl"), "\(verified.standardError)")
        let score = try exposure(tool, in: scratch)
        #expect(base != nil && score == base && score! < 2.0, "\(outputs): \(String(describing: score)), without the drop-in \(String(describing: base))")
        // systemd read the drop-in: the devices it allows are in the report.
        let report = try ProcessRunner.run(tool, ["security", "--offline=yes", scratch.file("gesturectl.service")]).standardOutput
        let allowLine = report.split(separator: "\n").first { $0.contains("DeviceAllow=") }.map(String.init) ?? ""
        #expect(allowLine.contains("/dev/uhid") == outputs.contains("uhid"), "\(allowLine)")
        #expect(allowLine.contains("char-hidg") == outputs.contains("gadget"), "\(allowLine)")
    }

    @Test("The socket is 0660 for the group gesturectl; the service is a notify service without network")
    func contents() throws {
        let socket = try String(contentsOfFile: Self.folder + "/gesturectl.socket", encoding: .utf8)
        #expect(socket.contains("SocketMode=0660"))
        #expect(socket.contains("SocketGroup=gesturectl"))
        #expect(socket.contains("ListenStream=/run/gesturectl/gesturectl.sock"))
        let service = try String(contentsOfFile: Self.folder + "/gesturectl.service", encoding: .utf8)
        for setting in ["Type=notify", "User=gesturectl", "SupplementaryGroups=input", "RestrictAddressFamilies=AF_UNIX AF_NETLINK", "NoNewPrivileges=yes"] {
            #expect(service.contains(setting), "\(setting)")
        }
        let sysusers = try String(contentsOfFile: Self.folder + "/gesturectl.sysusers", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(sysusers == ["g gesturectl -", "u gesturectl -:gesturectl \"gesturectl daemon\" /var/lib/gesturectl", "m gesturectl input"])
    }
}
