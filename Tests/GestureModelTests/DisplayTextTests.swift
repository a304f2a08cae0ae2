import GestureModel
import Testing

@Suite("Text shown to people")
struct DisplayTextTests {
    @Test func plainTextIsKept() {
        #expect(DisplayText.escaped("three-finger swipe · 40 mm, été, 日本") == "three-finger swipe · 40 mm, été, 日本")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(DisplayText.escaped("a\u{1B}[2J\u{07}\u{00}b") == "a<U+001B>[2J<U+0007><U+0000>b")
        #expect(DisplayText.escaped("a\nb\tc\rd") == "a\\nb\\tc\\rd")
        #expect(DisplayText.escaped("a\nb\tc", keepingLineBreaks: true) == "a\nb\\tc")
        #expect(DisplayText.escaped("\u{7F}\u{80}\u{9B}\u{9F}") == "<U+007F><U+0080><U+009B><U+009F>")
    }

    @Test func invisibleCharactersAreShownAsCodePoints() {
        #expect(DisplayText.escaped("\u{FEFF}tap") == "<U+FEFF>tap")
        #expect(DisplayText.escaped("a\u{00A0}b\u{200B}c\u{200D}d\u{202E}e\u{2066}f") == "a<U+00A0>b<U+200B>c<U+200D>d<U+202E>e<U+2066>f")
        #expect(DisplayText.escaped("\u{E0041}") == "<U+E0041>")
    }

    @Test func escapingTwiceChangesNothing() {
        let once = DisplayText.escaped("x\u{1B}\u{FEFF}\n")
        #expect(DisplayText.escaped(once) == once)
        #expect(!DisplayText.needsEscaping(once))
    }

    @Test func countsAgree() {
        #expect(Plural.count(1, "stroke") == "1 stroke")
        #expect(Plural.count(0, "stroke") == "0 strokes")
        #expect(Plural.count(2, "contact") == "2 contacts")
        let pointer = Stroke(kind: .pointer, samples: [])
        let finger = Stroke(kind: .finger, samples: [])
        #expect(Plural.contacts(2, of: [pointer, pointer]) == "2 pointers")
        #expect(Plural.contacts(1, of: [finger]) == "1 finger")
        #expect(Plural.contacts(2, of: [finger, pointer]) == "2 contacts")
    }
}
