import Foundation

/// Runs the built `gesturectl` binary, as a user or a script would.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The checkout's root (this file is Tests/GesturectlCommandsTests/CLIRunner.swift).
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The gesturectl binary built beside the test bundle.
    static let binary: String = {
        let bundleFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundleFolder.appendingPathComponent("gesturectl").path
    }()

    /// Runs gesturectl with `arguments` in `directory`, with a private,
    /// empty library unless `environment` says otherwise.
    static func run(
        _ arguments: [String], in directory: String = NSTemporaryDirectory(), environment: [String: String] = [:],
        stdin: String? = nil
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ["PATH": "/usr/bin:/bin", "HOME": directory, "GESTURECTL_BUILTINS": checkout + "/Recordings"]
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        group.wait()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh folder, removed when the value is released.
final class Scratch {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "gesturectl-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
    }
    func read(_ name: String) throws -> String { try String(contentsOfFile: path + "/" + name, encoding: .utf8) }
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + name) }
}
