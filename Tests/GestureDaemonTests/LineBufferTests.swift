import GestureBindings
@testable import GestureDaemon
@testable import GestureProtocol
import Testing

@Suite("The client's line reading")
struct LineBufferTests {
    @Test("A line of megabytes read in small pieces is searched once, byte by byte, and the lines around it come out whole")
    func longLineInPieces() {
        var buffer = LineBuffer()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 8 << 20)
        let stream = Array("first\n".utf8) + long + [0x0A] + Array("{}\nlast".utf8)
        var lines: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 4096)
            buffer.append(Array(stream[offset..<end]))
            offset = end
            while let line = buffer.next() { lines.append(line) }
        }
        #expect(lines.count == 3)
        #expect(lines.first == Array("first".utf8))
        #expect(lines.dropFirst().first == long)
        #expect(lines.last == Array("{}".utf8))
        // Searching the whole buffer again after each of the 2,048 pieces
        // would have scanned some 2,048 × 8 MiB / 2 = 8 GiB here.
        #expect(buffer.receivedBytes == stream.count)
        #expect(buffer.scannedBytes == stream.count)
        // The incomplete last line stays until its newline comes.
        buffer.append([0x0A])
        #expect(buffer.next() == Array("last".utf8))
        #expect(buffer.next() == nil)
    }

    @Test("Many short lines in one read come out in order")
    func manyLines() {
        var buffer = LineBuffer()
        buffer.append(Array((0..<10_000).map { "\($0)\n" }.joined().utf8))
        var count = 0
        while let line = buffer.next() {
            #expect(line == Array("\(count)".utf8))
            count += 1
        }
        #expect(count == 10_000)
        #expect(buffer.scannedBytes == buffer.receivedBytes)
    }
}
