import Glibc

/// A fresh folder under /tmp, removed (with its files) when released.
final class TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/gesturectl-test-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { removeTree(path) }

    private func removeTree(_ path: String) {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                if entry.pointee.d_type == DT_DIR { removeTree(child) } else { unlink(child) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}
