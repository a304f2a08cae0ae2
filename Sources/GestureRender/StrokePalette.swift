/// The colours strokes are drawn in: the Okabe–Ito palette, which stays
/// distinguishable with the common forms of colour blindness. Its yellow is
/// left out because it is nearly invisible on a light surface. Colour is
/// never the only cue: every stroke also carries its number.
enum StrokePalette {
    /// One colour.
    struct Colour: Hashable, Sendable {
        /// `#RRGGBB`, for SVG.
        let hex: String
        /// The nearest colour of the 256-colour ANSI palette, for terminals.
        let ansi256: Int
    }

    /// The colours in the order strokes use them.
    static let colours: [Colour] = [
        Colour(hex: "#0072B2", ansi256: 25),  // blue
        Colour(hex: "#D55E00", ansi256: 166),  // vermillion
        Colour(hex: "#009E73", ansi256: 36),  // bluish green
        Colour(hex: "#CC79A7", ansi256: 175),  // reddish purple
        Colour(hex: "#E69F00", ansi256: 178),  // orange
        Colour(hex: "#56B4E9", ansi256: 74),  // sky blue
        Colour(hex: "#000000", ansi256: 16),  // black
    ]

    /// The colour of the stroke numbered `number` (1-based); numbers past
    /// the end of the palette start over.
    static func colour(forStrokeNumber number: Int) -> Colour {
        colours[paletteIndex(forStrokeNumber: number)]
    }

    /// The palette position of the stroke numbered `number` (1-based).
    static func paletteIndex(forStrokeNumber number: Int) -> Int {
        let index = (number &- 1) % colours.count
        return index < 0 ? index + colours.count : index
    }
}
