/// A table from rectangles to values, probed without `Hasher`: open addressing with
/// linear probing over a rectangle's folded coordinates (``Rect/foldedBits``). The target
/// rules key one entry per distinct frame of tens of thousands of targets; a `Dictionary`
/// spent most of a lookup starting and finishing `Hasher` for one word. The slots hold
/// 4-byte positions into the entries, kept in the order they were added, so a table sized
/// for 100,000 frames is about the size of its entries (a slot of a key and a value each
/// was twice a `Dictionary`'s memory). Grows by doubling; nothing is ever removed.
///
/// A key is kept as four single-precision coordinates while every key is exact in them —
/// frames are read as `Float`, so always on real screens — and as the `Rect` itself once
/// one is not: 16 bytes a key, not 32 (the two target rules hold a table each at once).
package struct RectTable<Value> {
    /// Positions in the keys and values; -1 for an empty slot. At most half full.
    private var slots: [Int32]
    /// The keys while all are exact as `Float` (``wideKeys`` is nil), in the order added.
    private var narrowKeys: [SIMD4<Float>] = []
    /// The keys once one is not exact as `Float`.
    private var wideKeys: [Rect]?
    private var values: [Value] = []
    /// 64 minus the slot count's bits: a slot is the top bits of the mixed key.
    private var shift: UInt64

    /// Entries held.
    package var count: Int { values.count }

    /// A table that holds `capacity` entries without growing.
    package init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = [Int32](repeating: -1, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        narrowKeys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The value kept for `rect`; setting stores it (setting nil is not supported and
    /// leaves the table as it is).
    package subscript(rect: Rect) -> Value? {
        get {
            let position = slots[slot(of: rect)]
            return position < 0 ? nil : values[Int(position)]
        }
        set {
            guard let newValue else { return }
            let slot = slot(of: rect)
            if slots[slot] >= 0 {
                values[Int(slots[slot])] = newValue
                return
            }
            slots[slot] = Int32(truncatingIfNeeded: values.count)
            values.append(newValue)
            let narrow = SIMD4<Float>(Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height))
            if wideKeys == nil, Self.widen(narrow) == rect {
                narrowKeys.append(narrow)
            } else {
                if wideKeys == nil {
                    wideKeys = narrowKeys.map(Self.widen)
                    narrowKeys = []
                }
                wideKeys?.append(rect)
            }
            if values.count * 2 > slots.count { grow() }
        }
    }

    private static func widen(_ key: SIMD4<Float>) -> Rect {
        Rect(x: Double(key[0]), y: Double(key[1]), width: Double(key[2]), height: Double(key[3]))
    }

    /// The key at `position`.
    private func key(_ position: Int) -> Rect { wideKeys?[position] ?? Self.widen(narrowKeys[position]) }

    /// The slot that holds `rect`'s position, or the empty slot where it would go.
    private func slot(of rect: Rect) -> Int {
        // Fibonacci hashing: the product's top bits depend on every bit of the key (whole
        // coordinates leave the folded value's low bits zero).
        let folded = rect.foldedBits
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: ((folded ^ (folded >> 32)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while slots[slot] >= 0, key(Int(slots[slot])) != rect { slot = (slot + 1) & mask }
        return slot
    }

    /// Twice the slots, the entries placed again (their positions do not change).
    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        shift = UInt64(64 - slots.count.trailingZeroBitCount)
        for position in values.indices { slots[slot(of: key(position))] = Int32(truncatingIfNeeded: position) }
    }
}
