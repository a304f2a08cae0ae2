import GestureEditing

extension FingertipsOptions {
    /// The layouts by name, as `--layout` and the daemon take them: `row`, `arc`.
    public static let layoutNames = FingerLayout.allCases.map(\.rawValue)

    /// The layout's name (``layoutNames``).
    public var layoutName: String { layout.rawValue }

    /// Sets the layout by its name; false (nothing changed) when no layout has that name.
    public mutating func setLayout(named name: String) -> Bool {
        guard let named = FingerLayout(rawValue: name) else { return false }
        layout = named
        return true
    }
}
