/// A table from rectangles to values, probed without `Hasher`: open addressing with
/// linear probing over a rectangle's folded coordinates (``Rect/foldedBits``). The target
/// rules key one entry per distinct frame of tens of thousands of targets; a `Dictionary`
/// spent most of a lookup starting and finishing `Hasher` for one word. The slots hold
/// 4-byte positions into the entries, kept in the order they were added, so a table sized
/// for 100,000 frames is about the size of its entries (a slot of a key and a value each
/// was twice a `Dictionary`'s memory). Grows by doubling; nothing is ever removed.
package struct RectTable<Value> {
    /// Positions in ``entries``; -1 for an empty slot. At most half full.
    private var slots: [Int32]
    private var entries: [(key: Rect, value: Value)] = []
    /// 64 minus the slot count's bits: a slot is the top bits of the mixed key.
    private var shift: UInt64

    /// Entries held.
    package var count: Int { entries.count }

    /// A table that holds `capacity` entries without growing.
    package init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        entries.reserveCapacity(capacity)
    }

    /// The value kept for `rect`; setting stores it (setting nil is not supported and
    /// leaves the table as it is).
    package subscript(rect: Rect) -> Value? {
        get {
            let position = slots[slot(of: rect)]
            return position < 0 ? nil : entries[Int(position)].value
        }
        set {
            guard let newValue else { return }
            let slot = slot(of: rect)
            if slots[slot] >= 0 {
                entries[Int(slots[slot])].value = newValue
                return
            }
            slots[slot] = Int32(truncatingIfNeeded: entries.count)
            entries.append((rect, newValue))
            if entries.count * 2 > slots.count { grow() }
        }
    }

    /// The slot that holds `rect`'s position, or the empty slot where it would go.
    private func slot(of rect: Rect) -> Int {
        // Fibonacci hashing: the product's top bits depend on every bit of the key (whole
        // coordinates leave the folded value's low bits zero).
        let folded = rect.foldedBits
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: ((folded ^ (folded >> 32)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while slots[slot] >= 0, entries[Int(slots[slot])].key != rect { slot = (slot + 1) & mask }
        return slot
    }

    /// Twice the slots, the entries placed again (their positions do not change).
    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        shift = UInt64(64 - slots.count.trailingZeroBitCount)
        for position in entries.indices { slots[slot(of: entries[position].key)] = Int32(truncatingIfNeeded: position) }
    }
}
