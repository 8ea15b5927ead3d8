/// The chunk structure of a PNG, read before its pixels for what libpng does not report:
/// an animated PNG (APNG, an `acTL` chunk before the image data). libpng decodes only the
/// default image, which an APNG may hide (no `fcTL` before `IDAT`) while browsers show
/// the animation's first frame: judging that image would judge pixels nobody sees.
enum PNGChunks {
    /// Why the PNG cannot be judged as a still screen, or `nil` for a still image.
    static func animationProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
        var offset = 8
        var animated = false, frameBeforeImage = false
        // Chunks before the first IDAT: length (4), type (4), data, CRC (4).
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)]), as: UTF8.self)
            switch type {
            case "acTL": animated = true
            case "fcTL": frameBeforeImage = true
            case "IDAT", "IEND": offset = bytes.count
            default: break
            }
            guard length >= 0, length <= bytes.count else { break }
            offset += 12 + length
        }
        guard animated else { return nil }
        if frameBeforeImage {
            return "the screenshot is an animated PNG (APNG): a screenshot is one still frame"
        }
        return "the screenshot is an animated PNG (APNG) whose default image is hidden: browsers show its first animation frame, which auditd does not decode"
    }
}
