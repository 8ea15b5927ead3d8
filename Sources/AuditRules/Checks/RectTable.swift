/// A table from rectangles to values, probed without `Hasher`: open addressing with
/// linear probing over a rectangle's folded coordinates (``Rect/foldedBits``). The target
/// rules key one entry per distinct frame of tens of thousands of targets; a `Dictionary`
/// spent most of a lookup starting and finishing `Hasher` for one word. Grows by doubling
/// when three quarters full; nothing is ever removed.
package struct RectTable<Value> {
    private var keys: [Rect]
    private var values: [Value?]
    private var mask: Int
    /// 64 minus the slot count's bits: a slot is the top bits of the mixed key.
    private var shift: UInt64
    /// Entries held.
    package private(set) var count = 0

    /// A table that holds `capacity` entries without growing.
    package init(capacity: Int) {
        var size = 16
        while size * 3 < capacity * 4 { size *= 2 }
        keys = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: size)
        values = [Value?](repeating: nil, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// The value kept for `rect`; setting stores it (setting nil is not supported and
    /// leaves the table as it is).
    package subscript(rect: Rect) -> Value? {
        get {
            let slot = slot(of: rect)
            return values[slot]
        }
        set {
            guard let newValue else { return }
            var slot = slot(of: rect)
            if values[slot] == nil {
                if (count + 1) * 4 > values.count * 3 {
                    grow()
                    slot = self.slot(of: rect)
                }
                keys[slot] = rect
                count += 1
            }
            values[slot] = newValue
        }
    }

    /// The slot that holds `rect`, or the empty slot where it would go.
    private func slot(of rect: Rect) -> Int {
        // Fibonacci hashing: the product's top bits depend on every bit of the key (whole
        // coordinates leave the folded value's low bits zero).
        let folded = rect.foldedBits
        var slot = Int(truncatingIfNeeded: ((folded ^ (folded >> 32)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while values[slot] != nil, keys[slot] != rect { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: oldValues.count * 2)
        values = [Value?](repeating: nil, count: oldValues.count * 2)
        mask = values.count - 1
        shift = UInt64(64 - values.count.trailingZeroBitCount)
        for position in oldValues.indices {
            guard let value = oldValues[position] else { continue }
            let slot = slot(of: oldKeys[position])
            keys[slot] = oldKeys[position]
            values[slot] = value
        }
    }
}
