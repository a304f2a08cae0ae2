import GestureLibrary
import GestureModel
import Testing
import TestSupport

@Suite struct ShadowingTests {
    static func tap(_ name: String) -> Gesture {
        Gesture(
            name: name, device: .synthDefault,
            strokes: [Stroke(samples: [Sample(time: 0, x: 100, y: 100), Sample(time: 50_000, x: 100, y: 100)])])
    }

    @Test func aUserGestureWithABuiltinsNameSaysItHidesIt() throws {
        let folder = try TemporaryFolder()
        let builtins = folder.path + "/builtins"
        let builtinLibrary = GestureLibrary(userDirectory: builtins, builtinDirectory: nil)
        try builtinLibrary.save(Self.tap("x"), as: "tap", overwrite: false)
        try builtinLibrary.save(Self.tap("x"), as: "pinch", overwrite: false)
        let library = GestureLibrary(userDirectory: folder.path + "/user", builtinDirectory: builtins)

        #expect(library.hasBuiltin(named: "tap"))
        #expect(!library.hasBuiltin(named: "mine"))
        #expect(!library.hasBuiltin(named: "../builtins/tap"))
        #expect(try !library.save(Self.tap("x"), as: "mine", overwrite: false).hidesBuiltin)
        let hiding = try library.save(Self.tap("x"), as: "tap", overwrite: false)
        #expect(hiding.hidesBuiltin && hiding.source == .user)

        let listed = try library.list()
        #expect(listed.map(\.name) == ["mine", "tap", "pinch"])
        #expect(listed.map(\.hidesBuiltin) == [false, true, false])
        #expect(try library.entry(named: "tap").hidesBuiltin)
        #expect(try !library.entry(named: "pinch").hidesBuiltin)

        try library.remove("tap")
        #expect(try library.entry(named: "tap") == LibraryEntry(name: "tap", path: builtins + "/tap.gesture.json", source: .builtin))
    }

    /// The on-screen button's Saved gestures listed "swipe-up-2" before
    /// "swipe-up": the files' names sort '-' before '.'.
    @Test func listedByNameNotByFileName() throws {
        let folder = try TemporaryFolder()
        let library = GestureLibrary(userDirectory: folder.path, builtinDirectory: nil)
        for name in ["swipe-up-2", "swipe-up", "swipe", "a"] { try library.save(Self.tap("x"), as: name, overwrite: false) }
        #expect(try library.list().map(\.name) == ["a", "swipe", "swipe-up", "swipe-up-2"])
    }
}
