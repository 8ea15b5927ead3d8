/// 64-bit hashes (FNV-1a values) counted in flat open-addressing tables, sized once for the
/// keys they will hold: the element identities of a large screen count tens of thousands of
/// ids, where a `Dictionary` hashed each key again (SipHash) and grew as it filled.
struct HashCounts {
    private var keys: [UInt64]
    /// How many times each slot's key was added; 0 for an empty slot.
    private var counts: [UInt32]
    /// The first index added with each slot's key.
    private var firsts: [Int32]
    private var shift: UInt64
    /// The slots holding a key, so that ``reset(expected:)`` clears those only.
    private var used: [Int32] = []

    /// A table for up to `expected` distinct keys (at most half full).
    init(expected: Int) {
        keys = []
        counts = []
        firsts = []
        shift = 0
        allocate(expected: expected)
    }

    private mutating func allocate(expected: Int) {
        var bits: UInt64 = 4
        while (1 << bits) < 2 * max(expected, 1) { bits += 1 }
        keys = [UInt64](repeating: 0, count: 1 << bits)
        counts = [UInt32](repeating: 0, count: 1 << bits)
        firsts = [Int32](repeating: -1, count: 1 << bits)
        shift = 64 - bits
        used.removeAll(keepingCapacity: true)
    }

    /// Empties the table for up to `expected` distinct keys, keeping its storage when that
    /// is large enough and clearing only the slots used: the identities count each parent's
    /// children in turn, and a table made for each parent was three allocations apiece.
    mutating func reset(expected: Int) {
        guard counts.count >= 2 * max(expected, 1) else { return allocate(expected: expected) }
        for slot in used { counts[Int(slot)] = 0 }
        used.removeAll(keepingCapacity: true)
    }

    /// The slot of `key`: its own, or the empty one where it goes.
    private func slot(of key: UInt64) -> Int {
        let mask = keys.count - 1
        // Fibonacci hashing: the high bits of the product spread keys whatever their low bits.
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while counts[slot] != 0, keys[slot] != key { slot = (slot + 1) & mask }
        return slot
    }

    /// Counts `key`, added for `index`; returns how many times it was added before and the
    /// first index it was added for (`index` itself the first time).
    mutating func add(_ key: UInt64, index: Int32) -> (before: UInt32, first: Int32) {
        let slot = slot(of: key)
        let before = counts[slot]
        if before == 0 {
            keys[slot] = key
            firsts[slot] = index
            used.append(Int32(truncatingIfNeeded: slot))
        }
        counts[slot] = before &+ 1
        return (before, firsts[slot])
    }

    /// How many times `key` was added.
    func count(of key: UInt64) -> UInt32 { counts[slot(of: key)] }
}
