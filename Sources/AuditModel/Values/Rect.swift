/// A rectangle in points, screen coordinates (docs/snapshot-format.md, `frame`, `hit-frame`).
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One 64-bit value hashed for the four coordinates (their bit patterns folded, `-0.0`
    /// as `0.0`, so equal rectangles hash alike): frames key the target rules' tables of
    /// tens of thousands of targets, and hashing 32 bytes cost several times hashing 8.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(foldedBits)
    }

    /// The four coordinates' bit patterns folded into one value (`-0.0` as `0.0`): equal
    /// rectangles fold alike. What ``hash(into:)`` hashes, and what tables that probe
    /// without `Hasher` mix into a slot.
    @inlinable public var foldedBits: UInt64 {
        func bits(_ value: Double) -> UInt64 { value == 0 ? 0 : value.bitPattern }
        var folded = bits(x) &* 0x9E37_79B9_7F4A_7C15
        folded = (folded ^ bits(y)) &* 0xC2B2_AE3D_27D4_EB4F
        folded = (folded ^ bits(width)) &* 0x1656_67B1_9E37_79F9
        return folded ^ bits(height)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var area: Double { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when the two rectangles share some area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// True when `other` lies entirely inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// True when the point lies inside this rectangle or on its edge.
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && py >= y && px <= maxX && py <= maxY
    }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let left = min(x, other.x), top = min(y, other.y)
        return Rect(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// `[x, y, width, height]`, as reports print it.
    public var components: [Double] { [x, y, width, height] }

    public var description: String {
        components.map { $0.formattedForReport }.joined(separator: ",")
    }
}

extension Double {
    /// Shortest form for reports: integers without a decimal point, else up to 3 decimals.
    public var formattedForReport: String {
        guard isFinite else { return "0" }
        var bytes: [UInt8] = []
        DecimalWriter.append(self, decimals: 3, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
