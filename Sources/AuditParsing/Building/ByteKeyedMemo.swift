/// Values worked out from a name's bytes, kept for one document by the bytes: the names
/// seen back to back, each with its value; the last one found is tried first (siblings
/// share names). Dialects read an element's type, class or package through it once per
/// distinct name instead of as a `String` on every element — a 100,000-element dump
/// repeats the same few dozen names. Holds at most ``capacity`` names: in a document of
/// ever new names (which no capture is) the others are worked out each time, never
/// searched for longer.
struct ByteKeyedMemo<Value> {
    static var capacity: Int { 64 }

    private var names: [UInt8] = []
    private var entries: [(start: Int, count: Int, value: Value)] = []
    private var last = 0

    /// The value for `name`, made by `make` the first time (and every time once full).
    mutating func value(for name: UnsafeBufferPointer<UInt8>, _ make: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        let key = UnsafeRawBufferPointer(name)
        let found: Int? = names.withUnsafeBytes { names in
            func matches(_ entry: Int) -> Bool {
                let (start, count, _) = entries[entry]
                return count == key.count && UnsafeRawBufferPointer(rebasing: names[start..<start + count]).hasSameBytes(as: key)
            }
            if last < entries.count, matches(last) { return last }
            return entries.indices.first(where: matches)
        }
        if let found {
            last = found
            return entries[found].value
        }
        let value = make(name)
        if entries.count < Self.capacity {
            entries.append((names.count, name.count, value))
            names.append(contentsOf: name)
            last = entries.count - 1
        }
        return value
    }
}
