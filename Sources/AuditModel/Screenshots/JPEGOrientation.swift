/// A JPEG's EXIF orientation (TIFF tag 0x0112): phones store the sensor's pixels and say
/// how to turn them. 1 is upright; 2–8 are the mirrorings and quarter turns.
package enum JPEGOrientation {
    /// The orientation in the JPEG's APP1 Exif segment; 1 when absent or unreadable.
    package static func read(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            // Markers without a length, and the start of the pixel data: no more metadata.
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return 1 }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return 1 }
            let segment = offset + 4
            if marker == 0xE1, length >= 16, Array(bytes[segment..<segment + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return orientation(tiff: UnsafeRawBufferPointer(rebasing: bytes[(segment + 6)..<(offset + 2 + length)])) ?? 1
            }
            offset += 2 + length
        }
        return 1
    }

    /// The orientation tag of a TIFF structure's first directory.
    static func orientation(tiff: UnsafeRawBufferPointer) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let directory = u32(4), let count = u16(directory) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = directory + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard let value = u16(at + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    /// Whether `orientation` is a quarter turn (the upright image's sides are swapped).
    static func swapsSides(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// `image` turned upright for `orientation`.
    static func upright(_ image: Screenshot, orientation: Int) -> Screenshot {
        guard (2...8).contains(orientation) else { return image }
        let width = image.width, height = image.height
        let swaps = orientation >= 5
        let outWidth = swaps ? height : width, outHeight = swaps ? width : height
        var out = [UInt8](repeating: 0, count: image.rgba.count)
        image.rgba.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        // Where the upright pixel (x, y) is stored.
                        let (sx, sy): (Int, Int) =
                            switch orientation {
                            case 2: (width - 1 - x, y)
                            case 3: (width - 1 - x, height - 1 - y)
                            case 4: (x, height - 1 - y)
                            case 5: (y, x)
                            case 6: (y, height - 1 - x)
                            case 7: (width - 1 - y, height - 1 - x)
                            default: (width - 1 - y, x)
                            }
                        let from = (sy * width + sx) * 4, to = (y * outWidth + x) * 4
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                        target[to + 3] = source[from + 3]
                    }
                }
            }
        }
        return Screenshot(width: outWidth, height: outHeight, format: image.format, rgba: out)
    }
}
