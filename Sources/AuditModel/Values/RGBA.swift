/// An sRGB colour with 8-bit channels and alpha (docs/snapshot-format.md, `#RGB`, `#RRGGBB`, `#RRGGBBAA`).
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The four channels in one integer (red highest), for use as a key.
    public var packed: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }

    public static let white = RGBA(red: 255, green: 255, blue: 255)
    public static let black = RGBA(red: 0, green: 0, blue: 0)

    /// Reads `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (case-insensitive); `nil` otherwise.
    public init?<Bytes: Collection>(hex bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.first == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        var count = 0
        for byte in bytes.dropFirst() {
            guard count < 8, let nibble = RGBA.nibble(byte) else { return nil }
            value = value << 4 | UInt32(nibble)
            count += 1
        }
        func short(_ shift: UInt32) -> UInt8 {
            let nibble = UInt8((value >> shift) & 15)
            return nibble << 4 | nibble
        }
        func long(_ shift: UInt32) -> UInt8 { UInt8((value >> shift) & 255) }
        switch count {
        case 3: self.init(red: short(8), green: short(4), blue: short(0))
        case 4: self.init(red: short(12), green: short(8), blue: short(4), alpha: short(0))
        case 6: self.init(red: long(16), green: long(8), blue: long(0))
        case 8: self.init(red: long(24), green: long(16), blue: long(8), alpha: long(0))
        default: return nil
        }
    }

    /// Reads a colour from a string; see ``init(hex:)``.
    public init?(_ text: String) { self.init(hex: Array(text.utf8)) }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        // `#RRGGBB` or `#RRGGBBAA`: at most 9 bytes, a small string built without arrays.
        let count = alpha == 255 ? 7 : 9
        return String(unsafeUninitializedCapacity: count) { buffer in
            func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10 }
            buffer[0] = UInt8(ascii: "#")
            for (offset, channel) in [red, green, blue, alpha].prefix((count - 1) / 2).enumerated() {
                buffer[1 + offset * 2] = digit(channel >> 4)
                buffer[2 + offset * 2] = digit(channel & 15)
            }
            return count
        }
    }

    public var description: String { hex }

    public var isOpaque: Bool { alpha == 255 }

    /// The colour with its alpha multiplied by `opacity` (0…1).
    public func fading(by opacity: Double) -> RGBA {
        if opacity >= 1 { return self }
        let scaled = (Double(alpha) * max(0, opacity)).rounded()
        return RGBA(red: red, green: green, blue: blue, alpha: UInt8(min(255, scaled)))
    }

    /// This colour painted over an opaque `backdrop` (source-over in sRGB, as UIKit and
    /// browsers blend); the result is opaque.
    public func composited(over backdrop: RGBA) -> RGBA {
        if alpha == 255 { return self }
        let a = Double(alpha) / 255
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * a + Double(bottom) * (1 - a)).rounded())
        }
        return RGBA(
            red: mix(red, backdrop.red), green: mix(green, backdrop.green),
            blue: mix(blue, backdrop.blue), alpha: 255)
    }
}
