/// "Did you mean …?" for mistyped command names, option names and choices.
enum Suggestion {
    /// The candidate closest to `input`, or `nil` when none is close.
    ///
    /// Close means: a typo distance (insertions, deletions, substitutions
    /// and swaps of neighbours) of 1 for names up to 3 characters and 2
    /// for longer ones, or `input` being the start of exactly one candidate.
    /// Ties go to the earlier candidate.
    static func closest(to input: String, among candidates: [String]) -> String? {
        guard !input.isEmpty else { return nil }
        let inputCharacters = Array(input)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != input {
            let limit = candidate.count <= 3 ? 1 : 2
            let distance = editDistance(inputCharacters, Array(candidate))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        if let best { return best.candidate }
        let prefixed = candidates.filter { $0.hasPrefix(input) }
        return input.count >= 2 && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal-string-alignment distance: Levenshtein plus swaps of two
    /// neighbouring characters counted as one edit.
    static func editDistance(_ left: [Character], _ right: [Character]) -> Int {
        // Inputs come from the command line; very long ones cannot be typos
        // of a short name, and skipping them keeps the table small.
        guard abs(left.count - right.count) <= 3, left.count <= 64 else { return Int.max }
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        let width = right.count + 1
        var table = [Int](repeating: 0, count: (left.count + 1) * width)
        for row in 0...left.count { table[row * width] = row }
        for column in 0...right.count { table[column] = column }
        for row in 1...left.count {
            for column in 1...right.count {
                let cost = left[row - 1] == right[column - 1] ? 0 : 1
                var value = min(
                    table[(row - 1) * width + column] + 1,
                    table[row * width + column - 1] + 1,
                    table[(row - 1) * width + column - 1] + cost
                )
                if row > 1, column > 1, left[row - 1] == right[column - 2], left[row - 2] == right[column - 1] {
                    value = min(value, table[(row - 2) * width + column - 2] + 1)
                }
                table[row * width + column] = value
            }
        }
        return table[left.count * width + right.count]
    }
}
