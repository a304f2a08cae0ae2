import Glibc
import OperatingSystem
import Testing
@testable import CommandKit
import TestSupport

@Suite struct ContextTests {
    @Test func givesCommandsTheirContext() async {
        let output = OutputBuffer()
        let error = OutputBuffer()
        let tool = Tool(
            name: "gesturectl", version: "1", abstract: "",
            commands: [
                Command(name: "echo", abstract: "") { _, context in
                    let input = try context.readStandardInput(100)
                    context.standardOutput.write(bytes: input)
                    context.print("home=\(context.environment["HOME"] ?? "") cwd=\(context.currentDirectory)")
                    context.print("terminals=\(context.isStandardInputTerminal) \(context.isStandardOutputTerminal) \(context.isStandardErrorTerminal)")
                    context.warn("careful")
                    context.note("done")
                }
            ])
        let context = CommandContext(
            standardOutput: output.writer, standardError: error.writer, environment: ["HOME": "/home/g"],
            currentDirectory: "/work", isStandardInputTerminal: false, isStandardOutputTerminal: true,
            isStandardErrorTerminal: true, readStandardInput: { _ in Array("in\n".utf8) })
        #expect(await tool.main(arguments: ["echo"], context: context) == 0)
        #expect(output.text == "in\nhome=/home/g cwd=/work\nterminals=false true true\n")
        #expect(error.text == "gesturectl: warning: careful\ngesturectl: note: done\n")
        output.clear()
        #expect(output.bytes == [])
    }

    @Test func describesFailures() {
        #expect(CommandFailure.notFound("no such gesture").description == "no such gesture")
        #expect(CommandFailure.exit(.daemonUnavailable).description == "daemon unreachable or busy")
        #expect(CommandFailure.permissionDenied("x").status == .permissionDenied)
    }
}

@Suite struct ProcessContextTests {
    @Test func readsTheRunningProcess() {
        let context = CommandContext.process()
        #expect(context.currentDirectory.hasPrefix("/"))
        #expect(context.environment["PATH"] != nil)
        #expect(context.toolName == "")
    }

    @Test func currentDirectoryIsTheProcesses() {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let expected = getcwd(&buffer, buffer.count).map { String(cString: $0) }
        #expect(CommandContext.process().currentDirectory == expected)
    }

    /// Standard input is read to its end, and refused beyond the limit.
    @Test func readsAWholeStreamWithALimit() throws {
        func pipeHolding(_ text: String) -> Int32 {
            var ends: [Int32] = [-1, -1]
            precondition(pipe(&ends) == 0)
            let bytes = Array(text.utf8)
            precondition(write(ends[1], bytes, bytes.count) == bytes.count)
            close(ends[1])
            return ends[0]
        }
        let whole = pipeHolding("hello\n")
        defer { close(whole) }
        #expect(try SystemIO.readAll(whole, maximumBytes: 6) == Array("hello\n".utf8))
        let tooLong = pipeHolding("hello\n")
        defer { close(tooLong) }
        #expect(throws: CommandFailure.failure("standard input is larger than 5 bytes")) {
            try SystemIO.readAll(tooLong, maximumBytes: 5)
        }
        #expect(throws: CommandFailure.failure("cannot read standard input: Bad file descriptor")) {
            try SystemIO.readAll(-1, maximumBytes: 5)
        }
    }

    /// A current directory that cannot be read (deleted under the shell)
    /// keeps relative paths relative: `-o out.json` must not become `/out.json`.
    @Test func anUnreadableCurrentDirectoryIsDotNotRoot() {
        let deleted = SystemIO.currentDirectory { () throws(SystemError) -> String in
            throw SystemError(call: "getcwd", errorNumber: ENOENT)
        }
        #expect(deleted == ".")
        #expect(SystemIO.currentDirectory { () throws(SystemError) -> String in "/home/me" } == "/home/me")
    }
}
