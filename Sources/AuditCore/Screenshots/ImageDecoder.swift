import CImageCodecs

/// Decodes PNG (libpng: every bit depth, palette, grey, alpha, interlacing, 16-bit) and
/// JPEG (libjpeg-turbo: grey, YCbCr, CMYK and YCCK, with the EXIF orientation applied)
/// into a ``Screenshot``. The format is read from the bytes, not from a file name or a
/// Content-Type (real pipelines save JPEGs as `.png`).
public enum ImageDecoder {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format of `bytes`, from their signature.
    public static func format(of bytes: UnsafeRawBufferPointer) -> Screenshot.Format? {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        return nil
    }

    public static func decode(_ bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> Screenshot {
        let result: Result<Screenshot, ImageError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageError) { return .success(try decode(buffer, limits: limits)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func decode(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits = ImageLimits()) throws(ImageError) -> Screenshot {
        guard !bytes.isEmpty, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError(.empty, "the screenshot is empty", hint: "send the PNG or JPEG bytes of the screen")
        }
        guard bytes.count <= limits.maxBytes else {
            throw ImageError(.tooLarge, "the screenshot is \(bytes.count) bytes, over the limit of \(limits.maxBytes)",
                             hint: "send a PNG or JPEG of the screen at its native resolution")
        }
        guard let format = format(of: bytes) else {
            throw ImageError(.unsupportedFormat, "the screenshot is not a PNG or JPEG (\(describe(signature: bytes)))",
                             hint: "send a PNG (adb exec-out screencap -p, Appium getScreenshot) or a JPEG")
        }
        var message = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0, height: UInt32 = 0, components: Int32 = 0
        let header = message.withUnsafeMutableBufferPointer { text in
            switch format {
            case .png: auditd_png_header(base, bytes.count, &width, &height, text.baseAddress, text.count)
            case .jpeg: auditd_jpeg_header(base, bytes.count, &width, &height, &components, text.baseAddress, text.count)
            }
        }
        guard header == 0 else { throw malformed(format, message) }
        try check(width: Int(width), height: Int(height), format: format, limits: limits)
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let decoded = pixels.withUnsafeMutableBufferPointer { out in
            message.withUnsafeMutableBufferPointer { text in
                switch format {
                case .png: auditd_png_decode(base, bytes.count, out.baseAddress, width, height, text.baseAddress, text.count)
                case .jpeg: auditd_jpeg_decode(base, bytes.count, out.baseAddress, width, height, text.baseAddress, text.count)
                }
            }
        }
        guard decoded == 0 else { throw malformed(format, message) }
        let image = Screenshot(width: Int(width), height: Int(height), format: format, rgba: pixels)
        guard format == .jpeg else { return image }
        return JPEGOrientation.upright(image, orientation: JPEGOrientation.read(bytes))
    }

    static func check(width: Int, height: Int, format: Screenshot.Format, limits: ImageLimits) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw ImageError(.malformed, "the \(format.rawValue.uppercased()) says it is \(width) × \(height) pixels",
                             hint: "send a screenshot with pixels")
        }
        guard max(width, height) <= limits.maxSide, width * height <= limits.maxPixels else {
            throw ImageError(.tooLarge,
                             "the screenshot claims \(width) × \(height) pixels, over the limit of \(limits.maxPixels) pixels and \(limits.maxSide) on a side",
                             hint: "send the screen at its native resolution; no pixel was decoded")
        }
    }

    static func malformed(_ format: Screenshot.Format, _ message: [CChar]) -> ImageError {
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ImageError(.malformed, "the \(format.rawValue.uppercased()) cannot be decoded: \(reason)",
                          hint: "the file is corrupt or truncated; take the screenshot again")
    }

    /// What the first bytes look like, for the error.
    static func describe(signature bytes: UnsafeRawBufferPointer) -> String {
        func starts(_ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }
        if starts("GIF8") { return "a GIF" }
        if starts("RIFF"), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "a WebP" }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) { return "an HEIF/AVIF" }
        if starts("BM") { return "a BMP" }
        if starts("<") || starts("\u{FEFF}<") { return "XML or HTML text" }
        let head = bytes.prefix(8).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }
        return "starts with bytes " + head.joined(separator: " ")
    }
}
