/// A fixed set of 64-bit hashes (FNV-1a values of words), probed without `Hasher`: the
/// values are hashes already, so a few of their bits pick the slot. Built once, read by
/// every rule evaluation; a lookup is a handful of instructions.
package struct HashSet64: Sendable {
    private let slots: [UInt64]
    private let mask: Int
    private let hasZero: Bool

    package init(_ values: some Sequence<UInt64>) {
        let distinct = Array(Set(values))
        var size = 8
        while size < distinct.count * 2 { size *= 2 }
        var slots = [UInt64](repeating: 0, count: size)
        var hasZero = false
        for value in distinct {
            // 0 marks an empty slot, so it is remembered apart.
            guard value != 0 else {
                hasZero = true
                continue
            }
            var slot = HashSet64.slot(of: value, mask: size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = value
        }
        self.slots = slots
        self.mask = size - 1
        self.hasZero = hasZero
    }

    package func contains(_ value: UInt64) -> Bool {
        guard value != 0 else { return hasZero }
        var slot = HashSet64.slot(of: value, mask: mask)
        while true {
            let stored = slots[slot]
            if stored == value { return true }
            if stored == 0 { return false }
            slot = (slot + 1) & mask
        }
    }

    private static func slot(of value: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: value ^ (value >> 29)) & mask
    }
}
