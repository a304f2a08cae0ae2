import GestureModel
import Testing

/// The one error shape (issue 37): a kind for code, a message for people,
/// the message as its description unless the type says more.
@Suite("Kinded errors")
struct KindedErrorTests {
    struct Example: KindedError {
        enum Kind: Hashable, Sendable { case missing }
        var kind: Kind
        var message: String
    }

    @Test("The description is the message; the kind is there for code to sort")
    func shape() {
        let error: any KindedError = Example(kind: .missing, message: "g.json: \"strokes\" is missing")
        #expect(error.description == "g.json: \"strokes\" is missing")
        #expect((error as? Example)?.kind == .missing)
    }
}
