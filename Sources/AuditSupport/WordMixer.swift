/// Folds 64-bit words into one well-mixed word (multiply and shift per word, as
/// splitmix64), and byte runs eight bytes at a time: for keys that are compared again
/// when they match (a visual signature's key, the report writer's slot for evidence it
/// wrote before), where FNV-1a's byte-at-a-time loop would cost more than the lookup.
public struct WordMixer: Sendable {
    public private(set) var value: UInt64 = 0x243F_6A88_85A3_08D3

    public init() {}

    public mutating func add(_ word: UInt64) {
        value = (value ^ word) &* 0x9E37_79B9_7F4A_7C15
        value ^= value >> 29
    }

    /// Adds `bytes` eight at a time (the last few packed into one word), and their count.
    public mutating func add(bytes: UnsafeRawBufferPointer) {
        add(UInt64(truncatingIfNeeded: bytes.count))
        var offset = 0
        while offset + 8 <= bytes.count {
            add(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        guard offset < bytes.count else { return }
        var last: UInt64 = 0
        for byte in bytes[offset...].reversed() { last = last << 8 | UInt64(byte) }
        add(last)
    }
}
