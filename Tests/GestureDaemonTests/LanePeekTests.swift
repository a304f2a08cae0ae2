import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureFormat
import Testing

/// Issue 36: a request's lane follows its parsed `op`, never a byte search.
@Suite("Lanes by the parsed operation")
struct LanePeekTests {
    private func peek(_ line: String, within limit: Int = 16 << 10) -> DaemonOperation? {
        DaemonRequest.peekOperation(Array(line.utf8), within: limit)
    }

    @Test("The top-level op, wherever the word appears elsewhere")
    func spoofing() {
        #expect(peek(#"{"id": "bind", "op": "list"}"#) == .list)
        #expect(peek(#"{"id": 1, "name": "\"op\": \"cancel\"", "op": "play"}"#) == .play)
        #expect(peek(#"{"id": 1, "action": {"op": "cancel"}, "op": "bind"}"#) == .bind)
        #expect(peek(#"{"id": 1, "gesture": [{"op": "version"}], "op": "save"}"#) == .save)
        #expect(peek(#"{"op": "cancel", "id": 7}"#) == .cancel)
        #expect(peek(#"  {"id":1,"op":"bindings"}"#) == .bindings)
    }

    @Test("Nothing when it is not there within the bound, not a string, or no object")
    func nothing() {
        let long = #"{"id": 1, "gesture": ""# + String(repeating: "x", count: 20_000) + #"", "op": "bind"}"#
        #expect(peek(long) == nil)
        #expect(peek(long, within: 64 << 10) == .bind)
        #expect(peek(#"{"id": 1, "op": 3}"#) == nil)
        #expect(peek(#"{"id": 1, "op": "explode"}"#) == nil)
        #expect(peek(#"["op", "cancel"]"#) == nil)
        #expect(peek(#"{"id": 1, "op": "canc"#) == nil)
        #expect(peek(#"{"id": 1 "op": "cancel"}"#) == nil)
        #expect(peek("") == nil)
    }
}
