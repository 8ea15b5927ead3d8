/// Values kept by distinct 64-bit keys in the order the keys were added, for lists that
/// are usually short (the children of one parent, one slot across a list's cells): keys
/// are scanned in order while few — cheaper than hashing — and indexed by a dictionary
/// past ``linearLimit``. Reused across lists: ``removeAll()`` keeps the storage.
package struct KeyPositions<Value> {
    static var linearLimit: Int { 16 }
    private(set) var entries: [(key: UInt64, value: Value)] = []
    private var index: [UInt64: Int] = [:]

    /// Where `key` was added, if it was.
    @inline(__always)
    func position(of key: UInt64) -> Int? {
        if entries.count > Self.linearLimit { return index[key] }
        for position in entries.indices where entries[position].key == key { return position }
        return nil
    }

    /// The value added at `position`.
    subscript(position: Int) -> Value {
        get { entries[position].value }
        set { entries[position].value = newValue }
    }

    /// Adds a key not added yet with its value; its position is the count before.
    @inline(__always)
    mutating func append(_ key: UInt64, _ value: Value) {
        if entries.count >= Self.linearLimit {
            if entries.count == Self.linearLimit {
                for (position, entry) in entries.enumerated() { index[entry.key] = position }
            }
            index[key] = entries.count
        }
        entries.append((key, value))
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        if !index.isEmpty { index.removeAll(keepingCapacity: true) }
    }
}
