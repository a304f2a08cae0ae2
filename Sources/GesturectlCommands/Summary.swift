import GestureModel
// TEMPORARY until GestureRender lands.
enum Summary { static func describe(_ g: Gesture) -> String { "\(g.strokes.count) strokes" } }
