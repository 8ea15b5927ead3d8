@testable import AuditCore
import XCTest

/// PNG and JPEG decoding: every PNG colour type, bit depth and interlacing (written by the
/// test script's own encoder, not by libpng), JPEG orientations and CMYK, and hostile files.
final class ScreenshotDecodingTests: XCTestCase {
    func pixel(_ image: Screenshot, _ x: Int, _ y: Int) -> RGBA { image.color(x: x, y: y) }

    func close(_ a: RGBA, _ b: RGBA, within tolerance: Int) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }

    /// A report's thumbnail: a whole-factor box average at most `maxWidth` wide, written as
    /// a JPEG that decodes back to the same colours (within JPEG's loss).
    func testThumbnailsScaleDownAndKeepTheirColours() throws {
        // 1080 × 2400: the top half red, the bottom half a blue-grey.
        var rgba = [UInt8](repeating: 255, count: 1080 * 2400 * 4)
        for y in 0..<2400 {
            for x in 0..<1080 {
                let offset = (y * 1080 + x) * 4
                let top = y < 1200
                rgba[offset] = top ? 200 : 60
                rgba[offset + 1] = top ? 30 : 90
                rgba[offset + 2] = top ? 40 : 140
            }
        }
        let screenshot = Screenshot(width: 1080, height: 2400, format: .png, rgba: rgba)
        let thumbnail = try XCTUnwrap(ImageThumbnail.jpeg(of: screenshot, maxWidth: 800))
        XCTAssertEqual(thumbnail.width, 540)
        XCTAssertEqual(thumbnail.height, 1200)
        let decoded = try ImageDecoder.decode(thumbnail.bytes)
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.width, 540)
        for (y, want) in [(300, (200, 30, 40)), (900, (60, 90, 140))] {
            let offset = (y * 540 + 270) * 4
            let got = (Int(decoded.rgba[offset]), Int(decoded.rgba[offset + 1]), Int(decoded.rgba[offset + 2]))
            XCTAssertLessThanOrEqual(abs(got.0 - want.0) + abs(got.1 - want.1) + abs(got.2 - want.2), 12, "\(got) at row \(y)")
        }
        // Narrow enough already: not scaled.
        XCTAssertEqual(try XCTUnwrap(ImageThumbnail.jpeg(of: screenshot, maxWidth: 1200)).width, 1080)
    }

    func testEveryPNGColourTypeBitDepthAndInterlacingDecodesToTheSamePixels() throws {
        // Black left half, white right half: exact in every type and depth.
        let base: [String: Any] = [
            "width": 37, "height": 23, "background": "#FFFFFF", "format": "raw-png",
            "shapes": [["kind": "rect", "box": [0, 0, 18, 23], "color": "#000000"]],
        ]
        let kinds: [(type: Int, depths: [Int])] = [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]
        var specs: [String: [String: Any]] = [:]
        for kind in kinds {
            for depth in kind.depths {
                for interlace in [false, true] {
                    var spec = base
                    spec["png"] = ["color_type": kind.type, "bit_depth": depth, "interlace": interlace]
                    specs["t\(kind.type)-d\(depth)-\(interlace ? "adam7" : "plain").png"] = spec
                }
            }
        }
        let files = try TestImages.make(specs)
        XCTAssertEqual(files.count, 30)
        for (name, url) in files.sorted(by: { $0.key < $1.key }) {
            let image = try ImageDecoder.decode(TestImages.bytes(url))
            XCTAssertEqual(image.format, .png, name)
            XCTAssertEqual(image.width, 37, name)
            XCTAssertEqual(image.height, 23, name)
            XCTAssertEqual(pixel(image, 2, 2), .black, name)
            XCTAssertEqual(pixel(image, 17, 22), .black, name)
            XCTAssertEqual(pixel(image, 18, 0), .white, name)
            XCTAssertEqual(pixel(image, 36, 22), .white, name)
        }
    }

    func testColoursSurviveEightAndSixteenBitsAndPalettes() throws {
        let colour = "#C81E3C"
        var specs: [String: [String: Any]] = [:]
        for (name, type, depth) in [("rgb8", 2, 8), ("rgb16", 2, 16), ("palette", 3, 8), ("rgba16", 6, 16)] {
            specs[name + ".png"] = [
                "width": 8, "height": 8, "background": colour, "format": "raw-png",
                "png": ["color_type": type, "bit_depth": depth, "interlace": depth == 16],
            ]
        }
        for (name, url) in try TestImages.make(specs) {
            XCTAssertEqual(pixel(try ImageDecoder.decode(TestImages.bytes(url)), 4, 4), RGBA(colour), name)
        }
    }

    func testJPEGOrientationsComeOutUpright() throws {
        var specs: [String: [String: Any]] = [:]
        for orientation in 1...8 {
            specs["o\(orientation).jpg"] = [
                "width": 40, "height": 20, "background": "#FF0000", "format": "jpeg", "exif_orientation": orientation,
                "shapes": [["kind": "rect", "box": [0, 0, 10, 10], "color": "#0000FF"]],
            ]
        }
        for (name, url) in try TestImages.make(specs).sorted(by: { $0.key < $1.key }) {
            let bytes = try TestImages.bytes(url)
            let image = try ImageDecoder.decode(bytes)
            XCTAssertEqual(image.format, .jpeg)
            XCTAssertEqual(bytes.withUnsafeBytes { JPEGOrientation.read($0) }, Int(name.dropFirst().prefix(1)), name)
            XCTAssertEqual(image.width, 40, name)
            XCTAssertEqual(image.height, 20, name)
            // Blue stays top left, red everywhere else.
            XCTAssertTrue(close(pixel(image, 3, 3), RGBA(red: 0, green: 0, blue: 255), within: 40), "\(name): \(pixel(image, 3, 3))")
            XCTAssertTrue(close(pixel(image, 35, 16), RGBA(red: 255, green: 0, blue: 0), within: 40), "\(name): \(pixel(image, 35, 16))")
            XCTAssertTrue(close(pixel(image, 3, 16), RGBA(red: 255, green: 0, blue: 0), within: 40), "\(name): \(pixel(image, 3, 16))")
        }
    }

    func testCMYKJPEGDecodesToItsColours() throws {
        let files = try TestImages.make([
            "cmyk.jpg": [
                "width": 32, "height": 16, "background": "#1E64C8", "format": "jpeg", "cmyk": true,
                "shapes": [["kind": "rect", "box": [16, 0, 16, 16], "color": "#FFFFFF"]],
            ]
        ])
        let image = try ImageDecoder.decode(TestImages.bytes(files["cmyk.jpg"]))
        XCTAssertTrue(close(pixel(image, 4, 8), RGBA("#1E64C8")!, within: 24), "\(pixel(image, 4, 8))")
        XCTAssertTrue(close(pixel(image, 28, 8), .white, within: 24), "\(pixel(image, 28, 8))")
    }

    func testHostileImagesAreRefusedWithWhatAndHow() throws {
        let kinds = ["truncated", "bad-crc", "bomb", "zero-size", "one-pixel", "huge-palette", "gif", "empty"]
        let files = try TestImages.make(Dictionary(uniqueKeysWithValues: kinds.map { ($0 + ".img", ["hostile": $0]) }))
        func refusal(_ kind: String) throws -> ImageError? {
            do {
                _ = try ImageDecoder.decode(TestImages.bytes(files[kind + ".img"]))
                return nil
            } catch let error as ImageError {
                return error
            }
        }
        XCTAssertEqual(try refusal("truncated")?.code, .malformed)
        XCTAssertEqual(try refusal("bad-crc")?.code, .malformed)
        XCTAssertTrue(try refusal("bad-crc")?.message.contains("PNG cannot be decoded") == true)
        let bomb = try refusal("bomb")
        XCTAssertEqual(bomb?.code, .tooLarge)
        XCTAssertTrue(bomb?.message.contains("100000 × 100000") == true, bomb?.message ?? "")
        XCTAssertTrue(bomb?.hint.contains("no pixel was decoded") == true)
        XCTAssertEqual(try refusal("zero-size")?.code, .malformed)
        XCTAssertNil(try refusal("one-pixel"))
        XCTAssertEqual(try refusal("huge-palette")?.code, .malformed)
        let gif = try refusal("gif")
        XCTAssertEqual(gif?.code, .unsupportedFormat)
        XCTAssertTrue(gif?.message.contains("a GIF") == true)
        XCTAssertEqual(try refusal("empty")?.code, .empty)
        // Limits apply before decoding: a normal image over a small pixel limit.
        let one = try TestImages.bytes(files["one-pixel.img"])
        XCTAssertThrowsError(try ImageDecoder.decode(one, limits: ImageLimits(maxBytes: 10))) { error in
            XCTAssertEqual((error as? ImageError)?.code, .tooLarge)
        }
    }

    /// Every prefix of a PNG and a JPEG, and every single-byte corruption of their first
    /// bytes, is either decoded or refused with an ImageError: never a crash.
    func testCutsAndFlipsAreDecodedOrRefused() throws {
        let files = try TestImages.make([
            "a.png": ["width": 24, "height": 12, "background": "#336699", "format": "raw-png", "png": ["color_type": 2, "bit_depth": 8, "interlace": true]],
            "a.jpg": ["width": 24, "height": 12, "background": "#336699", "format": "jpeg", "exif_orientation": 6],
        ])
        var generator = SeededGenerator()
        for name in ["a.png", "a.jpg"] {
            let bytes = try TestImages.bytes(files[name])
            for cut in stride(from: 0, to: bytes.count, by: 7) {
                _ = try? ImageDecoder.decode(Array(bytes[0..<cut]))
            }
            for _ in 0..<400 {
                var broken = bytes
                broken[generator.below(broken.count)] ^= UInt8.random(in: 1...255, using: &generator)
                do { _ = try ImageDecoder.decode(broken) } catch { XCTAssertFalse(error.message.isEmpty) }
            }
        }
    }
}
