/// A decoded screenshot: 8-bit sRGB pixels, top row first, upright (a JPEG's EXIF
/// orientation already applied). Immutable and shared by every rule of an audit.
public struct Screenshot: Sendable {
    public enum Format: String, Sendable {
        case png, jpeg
    }

    public let width: Int
    public let height: Int
    public let format: Format
    /// Four bytes per pixel (red, green, blue, alpha), `width * 4` bytes per row.
    public let rgba: [UInt8]

    public init(width: Int, height: Int, format: Format, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.rgba = rgba
    }

    /// The pixel at (`x`, `y`) as an opaque colour (a screenshot's alpha is composited
    /// over black, as a display would show it).
    @inline(__always)
    public func color(x: Int, y: Int) -> RGBA {
        let offset = (y * width + x) * 4
        let alpha = rgba[offset + 3]
        if alpha == 255 { return RGBA(red: rgba[offset], green: rgba[offset + 1], blue: rgba[offset + 2]) }
        return RGBA(red: rgba[offset], green: rgba[offset + 1], blue: rgba[offset + 2], alpha: alpha).composited(over: .black)
    }
}

/// A rectangle of whole pixels in a screenshot.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var area: Int { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    /// `x,y,width,height`, as in evidence.
    public var description: String { "\(x),\(y),\(width),\(height)" }

    /// The part inside `bounds`.
    public func clipped(to bounds: PixelRect) -> PixelRect {
        let minX = max(x, bounds.x), minY = max(y, bounds.y)
        let maxX = min(x + width, bounds.x + bounds.width), maxY = min(y + height, bounds.y + bounds.height)
        return PixelRect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// The smallest rectangle holding every one of `rects` (empty at the origin for none).
    public static func union(of rects: [PixelRect]) -> PixelRect {
        guard let first = rects.first else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        var minX = first.x, minY = first.y, maxX = first.x + first.width, maxY = first.y + first.height
        for rect in rects.dropFirst() {
            minX = min(minX, rect.x)
            minY = min(minY, rect.y)
            maxX = max(maxX, rect.x + rect.width)
            maxY = max(maxY, rect.y + rect.height)
        }
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The rectangle grown by `amount` pixels on every side (shrunk when negative).
    public func inset(by amount: Int) -> PixelRect {
        PixelRect(x: x - amount, y: y - amount, width: width + 2 * amount, height: height + 2 * amount)
    }
}
