/// FNV-1a, 64-bit: the one small hash of byte strings in the engine — text hashes,
/// label comparison keys, card shapes and finding fingerprints.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x100_0000_01B3
    }

    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { add(byte) }
    }

    public mutating func add(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { add($0) }
    }

    public mutating func add(_ text: String) {
        text.withUTF8Bytes { add($0) }
    }
}
