/// The keys of one JSON object read so far, to refuse a key given twice.
///
/// An object has a handful of keys, so they are kept in a short list and
/// compared one by one (a short key compares as two words); a `Set` here
/// cost more in allocating, growing and hashing than the rest of reading a
/// small gesture. Past ``listed`` keys (a hostile object with thousands)
/// they go into a set, so that the check stays linear.
struct SeenKeys {
    private var list: [String] = []
    private var set: Set<String>?

    /// Keys compared one by one before they are hashed.
    static let listed = 16

    /// Notes `key`; false when it was noted before.
    mutating func insert(_ key: String) -> Bool {
        if set != nil { return set!.insert(key).inserted }
        if list.contains(key) { return false }
        if list.count < Self.listed {
            if list.isEmpty { list.reserveCapacity(8) }
            list.append(key)
        } else {
            var all = Set(list)
            all.insert(key)
            set = all
            list = []
        }
        return true
    }
}
