import GestureFormat
import GestureLibrary
import GestureModel
import GestureSynth
import Testing
import TestSupport

@testable import GestureDaemon

@Suite("The daemon's cache of library gestures")
struct GestureCacheTests {
    @Test("A gesture read once is served from the cache while its file is unchanged, and read again once replaced")
    func servedUntilReplaced() throws {
        let folder = try TemporaryFolder()
        let library = GestureLibrary(userDirectory: folder.path, builtinDirectory: nil)
        let tap = try GestureSynthesizer.tap()
        let swipe = try GestureSynthesizer.swipe(direction: .up)
        try library.save(tap, as: "g", overwrite: false)
        let cache = GestureCache()
        let path = try library.entry(named: "g").path
        #expect(try cache.gesture(at: path).strokes == tap.strokes)
        #expect(try cache.gesture(at: path).strokes == tap.strokes)
        #expect(cache.count == 1)
        // A save writes a new file (a new inode), even within the same second.
        try library.save(swipe, as: "g", overwrite: true)
        #expect(try cache.gesture(at: path).strokes == swipe.strokes)
        cache.clear()
        #expect(cache.count == 0)
    }

    @Test("A file that is not a gesture is an error, never cached")
    func errorsAreNotCached() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.gesture.json", "{")
        let cache = GestureCache()
        #expect(throws: LibraryError.self) { try cache.gesture(at: folder.file("bad.gesture.json")) }
        #expect(cache.count == 0)
    }
}
