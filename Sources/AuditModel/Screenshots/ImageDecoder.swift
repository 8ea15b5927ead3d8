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

    /// The header of `bytes` (see ``header(of:limits:)-(UnsafeRawBufferPointer,_)``).
    public static func header(of bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(ImageError) -> Header {
        let result: Result<Header, ImageError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageError) { return .success(try header(of: buffer, limits: limits)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    public static func decode(
        _ bytes: [UInt8], limits: ImageLimits = ImageLimits(),
        shouldStop: (() -> Bool)? = nil
    ) throws(ImageError) -> Screenshot {
        let result: Result<Screenshot, ImageError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageError) { return .success(try decode(buffer, limits: limits, shouldStop: shouldStop)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// What the header says, read before any pixel is allocated: the format, the size
    /// upright (EXIF orientation applied) and the bytes the decode will hold at its peak.
    public struct Header: Sendable, Equatable {
        public var format: Screenshot.Format
        public var width: Int
        public var height: Int
        /// The RGBA pixels, plus libjpeg's coefficient buffer for a progressive JPEG.
        public var decodeBytes: Int
        var storedWidth: Int, storedHeight: Int
        var jpegMemory: Int
    }

    /// The header of `bytes`, checked against `limits` (bytes, pixels, side); throws
    /// before a pixel is decoded.
    public static func header(of bytes: UnsafeRawBufferPointer, limits: ImageLimits = ImageLimits()) throws(ImageError) -> Header {
        guard !bytes.isEmpty, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError(.empty, "the screenshot is empty", hint: "send the PNG or JPEG bytes of the screen")
        }
        guard bytes.count <= limits.maxBytes else {
            throw ImageError(
                .tooLarge, "the screenshot is \(bytes.count) bytes, over the limit of \(limits.maxBytes)",
                hint: "send a PNG or JPEG of the screen at its native resolution")
        }
        guard let format = format(of: bytes) else {
            throw ImageError(
                .unsupportedFormat, "the screenshot is not a PNG or JPEG (\(describe(signature: bytes)))",
                hint: "send a PNG (adb exec-out screencap -p, Appium getScreenshot) or a JPEG")
        }
        if format == .png, let problem = PNGChunks.animationProblem(bytes) {
            throw ImageError(.unsupportedFormat, problem, hint: "send a still screenshot of the screen (adb exec-out screencap -p, Appium getScreenshot)")
        }
        var message = [CChar](repeating: 0, count: 256)
        var width: UInt32 = 0, height: UInt32 = 0, components: Int32 = 0, progressive: Int32 = 0
        let status = message.withUnsafeMutableBufferPointer { text in
            switch format {
            case .png: auditd_png_header(base, bytes.count, &width, &height, text.baseAddress, text.count)
            case .jpeg: auditd_jpeg_header(base, bytes.count, &width, &height, &components, &progressive, text.baseAddress, text.count)
            }
        }
        guard status == 0 else { throw malformed(format, message) }
        try check(width: Int(width), height: Int(height), format: format, limits: limits)
        let pixels = Int(width) * Int(height)
        // A progressive JPEG keeps every component's coefficients (2 bytes each) until its
        // last scan; the rest of libjpeg's buffers are rows.
        let jpegMemory = format == .jpeg ? (progressive != 0 ? pixels * Int(max(1, components)) * 2 : 0) + (16 << 20) : 0
        let swapped = format == .jpeg && JPEGOrientation.swapsSides(JPEGOrientation.read(bytes))
        return Header(
            format: format, width: swapped ? Int(height) : Int(width), height: swapped ? Int(width) : Int(height),
            decodeBytes: pixels * 4 + jpegMemory, storedWidth: Int(width), storedHeight: Int(height), jpegMemory: jpegMemory)
    }

    /// Decodes `bytes`. `shouldStop` is asked between rows of a JPEG's scans (a PNG's
    /// decode is linear in its pixels, bounded by the limits): when it says stop, the
    /// decode ends with ``ImageError/Code/stopped``.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, limits: ImageLimits = ImageLimits(),
        shouldStop: (() -> Bool)? = nil
    ) throws(ImageError) -> Screenshot {
        let header = try header(of: bytes, limits: limits)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageError(.empty, "the screenshot is empty", hint: "send the PNG or JPEG bytes of the screen")
        }
        if shouldStop?() == true { throw stopped }
        let (width, height) = (UInt32(header.storedWidth), UInt32(header.storedHeight))
        var message = [CChar](repeating: 0, count: 256)
        let stop = StopCheck(shouldStop)
        var decoded: Int32 = -1
        // Every byte is written by the decoder (or the array is thrown away): not zeroed first,
        // which cost a pass over 12 MB of a phone's screen before a pixel was decoded.
        let byteCount = header.storedWidth * header.storedHeight * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            initialized = byteCount
            decoded = withExtendedLifetime(stop) {
                message.withUnsafeMutableBufferPointer { text in
                    switch header.format {
                    case .png:
                        return auditd_png_decode(base, bytes.count, out.baseAddress, width, height, text.baseAddress, text.count)
                    case .jpeg:
                        var jpegLimits = auditd_jpeg_limits(
                            max_scans: Int32(clamping: limits.maxJPEGScans), max_memory: header.jpegMemory,
                            should_stop: shouldStop == nil ? nil : StopCheck.callback,
                            context: Unmanaged.passUnretained(stop).toOpaque())
                        return auditd_jpeg_decode(base, bytes.count, out.baseAddress, width, height, &jpegLimits, text.baseAddress, text.count)
                    }
                }
            }
        }
        if decoded == -2 { throw stopped }
        guard decoded == 0 else { throw malformed(header.format, message) }
        let image = Screenshot(width: header.storedWidth, height: header.storedHeight, format: header.format, rgba: pixels)
        guard header.format == .jpeg else { return image }
        return JPEGOrientation.upright(image, orientation: JPEGOrientation.read(bytes))
    }

    static let stopped = ImageError(
        .stopped, "the screenshot's decode was stopped: the audit's time budget ran out, or its client left",
        hint: "send a smaller or simpler image, or raise --audit-budget")

    /// Carries `shouldStop` through libjpeg's C callback.
    final class StopCheck {
        let shouldStop: (() -> Bool)?
        init(_ shouldStop: (() -> Bool)?) { self.shouldStop = shouldStop }

        static let callback: auditd_should_stop = { context in
            guard let context else { return 0 }
            let check = Unmanaged<StopCheck>.fromOpaque(context).takeUnretainedValue()
            return check.shouldStop?() == true ? 1 : 0
        }
    }

    static func check(width: Int, height: Int, format: Screenshot.Format, limits: ImageLimits) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw ImageError(
                .malformed, "the \(format.rawValue.uppercased()) says it is \(width) × \(height) pixels",
                hint: "send a screenshot with pixels")
        }
        guard max(width, height) <= limits.maxSide, width * height <= limits.maxPixels else {
            throw ImageError(
                .tooLarge,
                "the screenshot claims \(width) × \(height) pixels, over the limit of \(limits.maxPixels) pixels and \(limits.maxSide) on a side",
                hint: "send the screen at its native resolution; no pixel was decoded")
        }
    }

    static func malformed(_ format: Screenshot.Format, _ message: [CChar]) -> ImageError {
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ImageError(
            .malformed, "the \(format.rawValue.uppercased()) cannot be decoded: \(reason)",
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
