import Testing
@testable import CommandKit

@Suite struct SuggestionTests {
    let commands = ["synth", "merge", "fingers", "list", "rm", "rename", "help"]

    @Test func suggestsTheClosestName() {
        #expect(Suggestion.closest(to: "mrege", among: commands) == "merge")
        #expect(Suggestion.closest(to: "merg", among: commands) == "merge")
        #expect(Suggestion.closest(to: "ls", among: commands) == "list")
        #expect(Suggestion.closest(to: "fingres", among: commands) == "fingers")
        #expect(Suggestion.closest(to: "rn", among: commands) == "rm")
        #expect(Suggestion.closest(to: "ren", among: commands) == "rename")
    }

    @Test func suggestsNothingWhenNothingIsClose() {
        #expect(Suggestion.closest(to: "xyz", among: commands) == nil)
        #expect(Suggestion.closest(to: "", among: commands) == nil)
        #expect(Suggestion.closest(to: "q", among: commands) == nil)
        #expect(Suggestion.closest(to: "r", among: commands) == "rm")
        #expect(Suggestion.closest(to: String(repeating: "m", count: 10_000), among: commands) == nil)
    }

    @Test func countsASwapAsOneEdit() {
        #expect(Suggestion.editDistance(Array("mrege"), Array("merge")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
    }
}
