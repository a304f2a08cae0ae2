import GestureFormat
import GestureLibrary
import GestureModel
import GestureSynth
import Testing
import TestSupport

import GestureBindings
@testable import GestureDaemon
import GestureProtocol

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
        #expect(try cache.gesture(named: "g", in: library).strokes == tap.strokes)
        #expect(try cache.gesture(named: "g", in: library).strokes == tap.strokes)
        #expect(cache.count == 1)
        // A save writes a new file (a new inode), even within the same second.
        try library.save(swipe, as: "g", overwrite: true)
        #expect(try cache.gesture(named: "g", in: library).strokes == swipe.strokes)
        cache.clear()
        #expect(cache.count == 0)
    }

    @Test("A user gesture is served before the built-in of its name, and the built-in again once the user's is deleted")
    func userBeforeBuiltin() throws {
        let user = try TemporaryFolder()
        let builtins = try TemporaryFolder()
        let tap = try GestureSynthesizer.tap()
        let swipe = try GestureSynthesizer.swipe(direction: .up)
        try GestureLibrary(userDirectory: builtins.path, builtinDirectory: nil).save(tap, as: "g", overwrite: false)
        let library = GestureLibrary(userDirectory: user.path, builtinDirectory: builtins.path)
        let cache = GestureCache()
        #expect(try cache.gesture(named: "g", in: library).strokes == tap.strokes)
        let saved = try library.save(swipe, as: "g", overwrite: false)
        #expect(saved.hidesBuiltin)
        #expect(try cache.gesture(named: "g", in: library).strokes == swipe.strokes)
        #expect(try library.file(named: "g").source == .user)
        try library.remove("g")
        #expect(try cache.gesture(named: "g", in: library).strokes == tap.strokes)
        #expect(try library.file(named: "g").source == .builtin)
        #expect(throws: LibraryError.self) { try cache.gesture(named: "missing", in: library) }
        #expect(throws: LibraryError.self) { try cache.gesture(named: "../g", in: library) }
    }

    @Test("A file that is not a gesture is an error, never cached")
    func errorsAreNotCached() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.gesture.json", "{")
        let cache = GestureCache()
        let library = GestureLibrary(userDirectory: folder.path, builtinDirectory: nil)
        #expect(throws: LibraryError.self) { try cache.gesture(named: "bad", in: library) }
        #expect(cache.count == 0)
    }
}
