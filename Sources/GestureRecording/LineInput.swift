import OperatingSystem

/// What reading the Enter descriptor (a terminal's standard input) gave.
enum LineInput {
    /// A line ended (a newline or carriage return was read).
    case line
    /// Bytes without a line end, or nothing ready.
    case nothing
    /// End of input or a read error: stop watching the descriptor.
    case closed

    /// Reads what is waiting on a line-oriented descriptor (a terminal in
    /// canonical mode delivers a whole line at once).
    static func read(_ descriptor: FileDescriptor) -> LineInput {
        do {
            guard let bytes = try descriptor.read(upTo: 256) else { return .nothing }
            if bytes.isEmpty { return .closed }
            return bytes.contains(where: { $0 == 10 || $0 == 13 }) ? .line : .nothing
        } catch {
            return .closed
        }
    }
}
