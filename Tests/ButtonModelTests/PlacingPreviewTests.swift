import ButtonModel
import GestureModel
import GestureSynth
import Testing

@Suite("The fingers drawn at the pointer while placing")
struct PlacingPreviewTests {
    @Test("A three-finger swipe up: three circles in a row at the pointer, where its fingers first touch")
    func swipeUp() throws {
        let gesture = try GestureSynthesizer.swipe(direction: .up, fingers: 3, distanceMM: 40)
        let preview = try #require(PlacingPreview(gesture, label: "3 fingers · swipe up"))
        #expect(preview.fingers.count == 3)
        // In a row across, below the centre (they move up through it).
        let ys = preview.fingers.map(\.y)
        #expect(ys.allSatisfy { abs($0 - ys[0]) < 0.5 })
        #expect(ys[0] > 15 && ys[0] < 25, "they start 20 mm below the centre")
        let xs = preview.fingers.map(\.x).sorted()
        #expect(abs(xs[0] + xs[2]) < 0.5, "the row is centred")
        // On the screen, at 4 px per mm, around the pointer.
        let centres = preview.centres(at: ScreenPoint(x: 500, y: 300), pixelsPerMillimetre: 4)
        #expect(centres.allSatisfy { abs($0.y - (300 + ys[0] * 4)) < 0.01 })
        // Typed: left to inference, this line took 8 s to type-check.
        let meanX: Double = centres.map(\.x).reduce(0, +) / 3
        #expect(abs(meanX - 500) < 2)
        #expect(preview.label == "3 fingers · swipe up")
    }

    @Test("A finger that taps twice is one circle; a gesture without samples has no preview")
    func doubleTapAndEmpty() throws {
        let gesture = try GestureSynthesizer.doubleTap(fingers: 2)
        #expect(gesture.strokes.count == 4)
        #expect(PlacingPreview(gesture, label: "")?.fingers.count == 2)
        var empty = gesture
        empty.strokes = []
        #expect(PlacingPreview(empty, label: "") == nil)
    }

    @Test("A monitor's scale from its physical width; 96 dpi when it states none or an implausible one")
    func scale() {
        #expect(PlacingPreview.pixelsPerMillimetre(widthPixels: 1920, widthMillimetres: 480) == 4)
        #expect(PlacingPreview.pixelsPerMillimetre(widthPixels: 1280, widthMillimetres: 0) == PlacingPreview.assumedPixelsPerMillimetre)
        #expect(PlacingPreview.pixelsPerMillimetre(widthPixels: 1280, widthMillimetres: 10) == PlacingPreview.assumedPixelsPerMillimetre)
    }
}
