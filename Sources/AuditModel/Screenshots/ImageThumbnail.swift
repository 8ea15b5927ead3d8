import CImageCodecs

#if canImport(Glibc)
import Glibc
#endif

/// A screenshot made small for a report: scaled down by averaging boxes of pixels to at
/// most `maxWidth` pixels across, and written as a JPEG. A 1080 × 2400 phone screenshot
/// drawn 390 points wide needs no more than twice that: the HTML report embedded each at
/// full size (4.47 of a 5.1 MB page).
public enum ImageThumbnail {
    /// The JPEG bytes of `screenshot` at most `maxWidth` pixels wide (its own width when
    /// narrower), or nil when the encoder fails.
    public static func jpeg(of screenshot: Screenshot, maxWidth: Int, quality: Int = 82) -> (bytes: [UInt8], width: Int, height: Int)? {
        let (pixels, width, height) = scaled(screenshot, maxWidth: maxWidth)
        guard width > 0, height > 0 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = pixels.withUnsafeBufferPointer { buffer in
            auditd_jpeg_encode(buffer.baseAddress, UInt32(width), UInt32(height), Int32(quality), &output, &size, &message, message.count)
        }
        guard status == 0, let output else { return nil }
        defer { free(output) }
        return (Array(UnsafeBufferPointer(start: output, count: size)), width, height)
    }

    /// The RGBA pixels of `screenshot` scaled down by a whole factor so that it is at most
    /// `maxWidth` wide, each output pixel the mean of its box.
    static func scaled(_ screenshot: Screenshot, maxWidth: Int) -> (pixels: [UInt8], width: Int, height: Int) {
        let factor = max(1, (screenshot.width + max(maxWidth, 1) - 1) / max(maxWidth, 1))
        guard factor > 1 else { return (screenshot.rgba, screenshot.width, screenshot.height) }
        let width = screenshot.width / factor, height = screenshot.height / factor
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let source = screenshot.rgba
        let area = factor * factor
        for y in 0..<height {
            for x in 0..<width {
                var sums = (0, 0, 0, 0)
                for dy in 0..<factor {
                    var offset = ((y * factor + dy) * screenshot.width + x * factor) * 4
                    for _ in 0..<factor {
                        sums.0 += Int(source[offset])
                        sums.1 += Int(source[offset + 1])
                        sums.2 += Int(source[offset + 2])
                        sums.3 += Int(source[offset + 3])
                        offset += 4
                    }
                }
                let target = (y * width + x) * 4
                out[target] = UInt8(sums.0 / area)
                out[target + 1] = UInt8(sums.1 / area)
                out[target + 2] = UInt8(sums.2 / area)
                out[target + 3] = UInt8(sums.3 / area)
            }
        }
        return (out, width, height)
    }
}
