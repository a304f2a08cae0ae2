/// The values of one command line, by option or argument name, checked
/// against their declared types and with defaults filled in.
///
/// Accessors take the name as declared (`"output"` for `--output`,
/// `"files"` for the argument `files`). Asking for a name the command does
/// not declare, or for the wrong type (a duration from a string option), is
/// a programming error and stops the program with a message naming it:
/// such a bug is in the command's code, never in the user's input.
///
/// An option that declares a default (or is required) always has a value:
/// read it with the non-optional accessors (``stringOrDefault(_:)``,
/// ``integerOrDefault(_:)``, ``doubleOrDefault(_:)``,
/// ``durationOrDefault(_:)``), so the default is written once, in the
/// declaration the help text shows, and never again where it is read.
public struct ParsedValues: Sendable {
    /// One occurrence of a value.
    struct Entry: Sendable, Hashable {
        /// The text as given (or the default's text).
        var text: String
        /// The checked value.
        var value: ParsedValue
    }

    /// The command's name path, e.g. `["merge"]`.
    public let commandPath: [String]
    /// The names of the declared flags.
    let declaredFlags: Set<String>
    /// The names of the declared options that take values, and of the arguments.
    let declaredValues: Set<String>
    /// The names of the options that always have a value: those that
    /// declare a default, and required ones.
    let defaultedValues: Set<String>
    /// Values by name, in command-line order.
    var entries: [String: [Entry]] = [:]
    /// Flags given, with how many times.
    var flagCounts: [String: Int] = [:]
    /// Names whose values came from the command line rather than a default.
    var givenNames: Set<String> = []

    init(commandPath: [String], declaredFlags: Set<String>, declaredValues: Set<String>, defaultedValues: Set<String> = []) {
        self.commandPath = commandPath
        self.declaredFlags = declaredFlags
        self.declaredValues = declaredValues
        self.defaultedValues = defaultedValues
    }

    // MARK: - Flags

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool { flagCount(name) > 0 }

    /// How many times the flag was given (`-v -v` is 2).
    public func flagCount(_ name: String) -> Int {
        precondition(declaredFlags.contains(name), "CommandKit: \(describePath) declares no flag '\(name)'")
        return flagCounts[name] ?? 0
    }

    // MARK: - Presence

    /// Whether the option or argument was given on the command line (a
    /// default does not count); for a flag, whether it was given.
    public func isGiven(_ name: String) -> Bool {
        if declaredFlags.contains(name) { return flag(name) }
        _ = checkedEntries(name)
        return givenNames.contains(name)
    }

    // MARK: - Strings

    /// The text of the last value of an option or argument of any type (or
    /// of its default), as typed; `nil` when absent.
    public func string(_ name: String) -> String? { checkedEntries(name).last?.text }

    /// The texts of every value: repeated options and variadic arguments
    /// give several; list values are split at commas.
    public func strings(_ name: String) -> [String] {
        checkedEntries(name).flatMap { entry -> [String] in
            if case .list = entry.value { return entry.text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            return [entry.text]
        }
    }

    /// The value of a single-valued argument (same as ``string(_:)``).
    public func argument(_ name: String) -> String? { string(name) }

    /// The values of a variadic argument (same as ``strings(_:)``).
    public func arguments(_ name: String) -> [String] { strings(name) }

    // MARK: - Numbers

    /// The last value of an integer option or argument; `nil` when absent.
    public func integer(_ name: String) -> Int? { integers(name).last }

    /// Every integer value (repeated options, lists, variadic arguments).
    public func integers(_ name: String) -> [Int] {
        scalars(name, "integer") { if case .integer(let value) = $0 { value } else { nil } }
    }

    /// The last value of a number option or argument (integers convert);
    /// `nil` when absent.
    public func double(_ name: String) -> Double? { doubles(name).last }

    /// Every number value (repeated options, lists, variadic arguments).
    public func doubles(_ name: String) -> [Double] {
        scalars(name, "number") {
            switch $0 {
            case .double(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        }
    }

    // MARK: - Durations

    /// The last value of a duration option or argument, in microseconds;
    /// `nil` when absent.
    public func duration(_ name: String) -> Int64? { durations(name).last }

    /// Every duration value in microseconds (repeated options, lists such
    /// as `--stagger 0,100ms,200ms`, variadic arguments).
    public func durations(_ name: String) -> [Int64] {
        scalars(name, "duration") { if case .duration(let value) = $0 { value } else { nil } }
    }

    /// The last value of a duration option or argument, in seconds; `nil`
    /// when absent.
    public func seconds(_ name: String) -> Double? { duration(name).map { Double($0) / 1_000_000 } }

    // MARK: - Values with a default

    /// The text of the last value of an option that declares a default (or
    /// is required), of any type: as typed, or the default's text when the
    /// option is absent.
    public func stringOrDefault(_ name: String) -> String { defaulted(name, string) }

    /// The last value of an integer option that declares a default (or is
    /// required): the one given, or the default.
    public func integerOrDefault(_ name: String) -> Int { defaulted(name, integer) }

    /// The last value of a number option that declares a default (or is
    /// required): the one given, or the default (integers convert).
    public func doubleOrDefault(_ name: String) -> Double { defaulted(name, double) }

    /// The last value of a duration option that declares a default (or is
    /// required), in microseconds: the one given, or the default.
    public func durationOrDefault(_ name: String) -> Int64 { defaulted(name, duration) }

    // MARK: - Raw

    /// Every checked value of an option or argument, in command-line order.
    public func values(_ name: String) -> [ParsedValue] { checkedEntries(name).map(\.value) }

    // MARK: - Internals

    private var describePath: String { "command '\(commandPath.joined(separator: " "))'" }

    private func checkedEntries(_ name: String) -> [Entry] {
        precondition(declaredValues.contains(name), "CommandKit: \(describePath) declares no option or argument '\(name)'")
        return entries[name] ?? []
    }

    /// `read(name)` for an option that always has a value. Asking for one
    /// that declares no default is a bug in the command, reported even when
    /// the option was given (so a test that gives it finds the bug too).
    private func defaulted<Value>(_ name: String, _ read: (String) -> Value?) -> Value {
        let value = read(name)
        precondition(
            defaultedValues.contains(name),
            "CommandKit: '\(name)' of \(describePath) declares no default; read it with an optional accessor")
        // Only a default that does not parse leaves it empty: Tool.validate() reports that.
        guard let value else { preconditionFailure("CommandKit: the default of '\(name)' of \(describePath) does not parse") }
        return value
    }

    private func scalars<Value>(_ name: String, _ typeName: String, _ extract: (ParsedValue) -> Value?) -> [Value] {
        checkedEntries(name).flatMap { entry -> [ParsedValue] in
            if case .list(let items) = entry.value { return items }
            return [entry.value]
        }.map { value in
            guard let extracted = extract(value) else {
                preconditionFailure("CommandKit: '\(name)' of \(describePath) is not of type \(typeName)")
            }
            return extracted
        }
    }
}
