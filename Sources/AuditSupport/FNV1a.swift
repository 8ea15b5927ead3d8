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

extension FNV1a {
    /// A 64-bit hash as 16 lower-case hex digits (fingerprints, transcript digests).
    public static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            writeHex(value, to: UnsafeMutableRawBufferPointer(buffer))
            return 16
        }
    }

    /// The 16 hex digits of `value` into the first 16 bytes of `buffer`.
    public static func writeHex(_ value: UInt64, to buffer: UnsafeMutableRawBufferPointer) {
        for position in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * UInt64(position))) & 15
            buffer[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }
}
