import ButtonModel
import Glibc
import OperatingSystem

/// Writes and removes the button's XDG autostart entry (``ButtonAutostart``).
enum AutostartStore {
    /// Turns the autostart entry on (written atomically) or off (removed);
    /// says what it did on standard error. Whether it could.
    static func set(_ on: Bool, path: String?) -> Bool {
        guard let path else {
            say("cannot find the autostart folder: neither XDG_CONFIG_HOME nor HOME is an absolute folder")
            return false
        }
        guard on else {
            do throws(SystemError) {
                try FileSystem.unlink(path)
                say("autostart is off: removed \(shown(path))")
            } catch where error.kind == .notFound {
                say("autostart is off (there was no \(shown(path)))")
            } catch {
                say("cannot remove \(shown(path)): \(error.errorMessage)")
                return false
            }
            return true
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var temporary: String?
        do throws(SystemError) {
            try PositionStore.makeFolders(folder)
            let (descriptor, temporaryPath) = try FileSystem.createTemporaryFile(prefix: path + ".tmp-")
            temporary = temporaryPath
            defer { descriptor.close() }
            try descriptor.writeAll(Array(ButtonAutostart.desktopEntry.utf8), path: temporaryPath)
            try descriptor.setPermissions(0o644, path: temporaryPath)
            try descriptor.synchronize(path: temporaryPath)
            try FileSystem.rename(temporaryPath, to: path)
            temporary = nil
        } catch {
            if let temporary { try? FileSystem.unlink(temporary) }
            say("cannot write \(shown(path)): \(error.errorMessage)")
            return false
        }
        say("autostart is on: the button starts with each desktop session (\(shown(path)); turn it off with --autostart off)")
        return true
    }
}
