/// Attribute-name pointer → the raw value of the document's dialect's key, for one document. libxml2 interns names in its
/// dictionary, so each distinct name has one address; a small open-addressing table
/// beats hashing with `Hasher` on this hot path.
struct AttributeKeyCache {
    private var slots = [(UnsafeRawPointer?, UInt8)](repeating: (nil, 0), count: 512)
    private var count = 0

    func lookup(_ pointer: UnsafeRawPointer) -> UInt8? {
        var slot = Self.slot(pointer)
        while let stored = slots[slot].0 {
            if stored == pointer { return slots[slot].1 }
            slot = (slot + 1) & 511
        }
        return nil
    }

    mutating func insert(_ pointer: UnsafeRawPointer, _ key: UInt8) {
        // A document with hundreds of distinct attribute names is not worth caching further.
        guard count < 384 else { return }
        var slot = Self.slot(pointer)
        while slots[slot].0 != nil { slot = (slot + 1) & 511 }
        slots[slot] = (pointer, key)
        count += 1
    }

    private static func slot(_ pointer: UnsafeRawPointer) -> Int {
        let bits = UInt(bitPattern: pointer)
        return Int(truncatingIfNeeded: (bits >> 3) ^ (bits >> 12)) & 511
    }
}
