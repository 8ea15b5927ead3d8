import AuditCore
import Foundation
import XCTest

/// What decoding a screenshot may cost: scans bounded, the decode stoppable by the audit's
/// budget, the size settled from the header before a pixel is decoded, animated PNGs
/// refused rather than judged on a frame nobody sees (issue 26).
final class ImageCostTests: XCTestCase {
    static let images = TestSupport.fixtures.appendingPathComponent("images")

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.images.appendingPathComponent(name)))
    }

    /// A progressive JPEG's scans are counted: past the limit it is refused with the
    /// count, under it decoded.
    func testScansOverTheLimitAreRefused() throws {
        let bytes = try fixture("progressive-96-scans-512.jpg")
        let image = try ImageDecoder.decode(bytes)
        XCTAssertEqual(image.width, 512)
        XCTAssertThrowsError(try ImageDecoder.decode(bytes, limits: ImageLimits(maxJPEGScans: 50))) { error in
            let refusal = error as? ImageError
            XCTAssertEqual(refusal?.code, .malformed)
            XCTAssertTrue(refusal?.message.contains("more than 50 scans") == true, refusal?.message ?? "")
        }
        XCTAssertEqual(ImageLimits().maxJPEGScans, 100)
    }

    /// The decode asks whether to stop between rows of every scan: stopped early, it
    /// ends at once with `.stopped`, far sooner than the whole decode.
    func testDecodeStopsWhenAsked() throws {
        let bytes = try fixture("progressive-96-scans-4000.jpg")
        let whole = Date()
        _ = try ImageDecoder.decode(bytes)
        let wholeSeconds = Date().timeIntervalSince(whole)
        var asked = 0
        let started = Date()
        XCTAssertThrowsError(
            try ImageDecoder.decode(
                bytes,
                shouldStop: {
                    asked += 1
                    return asked > 20
                })
        ) { error in
            XCTAssertEqual((error as? ImageError)?.code, .stopped)
        }
        let stoppedSeconds = Date().timeIntervalSince(started)
        XCTAssertEqual(asked, 21, "stopped at the first yes")
        XCTAssertLessThan(stoppedSeconds, wholeSeconds / 2, "stopped after \(stoppedSeconds) s; the whole decode takes \(wholeSeconds) s")
        // Never stopped: the same pixels as without the check.
        XCTAssertEqual(try ImageDecoder.decode(bytes, shouldStop: { false }).rgba.count, 4000 * 4000 * 4)
    }

    /// The header gives the size and the decode's peak memory before any pixel: a
    /// progressive JPEG holds its coefficients too.
    func testHeaderSaysWhatTheDecodeWillHold() throws {
        let header = try ImageDecoder.header(of: fixture("progressive-96-scans-4000.jpg"))
        XCTAssertEqual(header.format, .jpeg)
        XCTAssertEqual([header.width, header.height], [4000, 4000])
        XCTAssertGreaterThanOrEqual(header.decodeBytes, 4000 * 4000 * 4 + 4000 * 4000 * 3 * 2)
        let files = try TestImages.make([
            "a.png": ["width": 30, "height": 20, "background": "#336699", "format": "png"],
            "b.jpg": ["width": 20, "height": 30, "background": "#336699", "format": "jpeg", "exif_orientation": 6],
        ])
        let png = try ImageDecoder.header(of: TestImages.bytes(files["a.png"]))
        XCTAssertEqual([png.width, png.height, png.decodeBytes], [30, 20, 30 * 20 * 4])
        // A quarter-turned JPEG is upright in the header as in the decode.
        let jpeg = try ImageDecoder.header(of: TestImages.bytes(files["b.jpg"]))
        let decoded = try ImageDecoder.decode(TestImages.bytes(files["b.jpg"]))
        XCTAssertEqual([jpeg.width, jpeg.height], [decoded.width, decoded.height])
    }

    /// A screenshot that cannot fit its snapshot is refused from its header.
    func testMismatchIsKnownBeforeDecoding() throws {
        let snapshot = try SnapshotParser().parse(
            Array(#"<snapshot version="1" platform="ios" width="390" height="844" scale="3"><element id="a" role="button" label="Go" frame="0,0,44,44"/></snapshot>"#.utf8))
        let header = try ImageDecoder.header(of: fixture("progressive-96-scans-4000.jpg"))
        XCTAssertThrowsError(try snapshot.checkFits(header)) { error in
            XCTAssertEqual((error as? ImageError)?.code, .mismatch)
        }
    }

    /// An animated PNG (an acTL chunk before the image data) is refused, whether its
    /// default image is its first frame or hidden.
    func testAnimatedPNGsAreRefused() throws {
        let files = try TestImages.make(["a.png": ["width": 8, "height": 8, "background": "#000000", "format": "png"]])
        let still = try TestImages.bytes(files["a.png"])
        XCTAssertNoThrow(try ImageDecoder.decode(still))
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let length = UInt32(data.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 255), UInt8(length >> 8 & 255), UInt8(length & 255)]
                + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        // After the signature (8) and IHDR (25 bytes with its length, type and CRC).
        let afterHeader = 8 + 25
        let acTL = chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])
        let fcTL = chunk("fcTL", [UInt8](repeating: 0, count: 26))
        for (name, inserted) in [("hidden default image", acTL), ("first frame shown", acTL + fcTL)] {
            let animated = Array(still[..<afterHeader]) + inserted + Array(still[afterHeader...])
            XCTAssertThrowsError(try ImageDecoder.decode(animated), name) { error in
                let refusal = error as? ImageError
                XCTAssertEqual(refusal?.code, .unsupportedFormat, name)
                XCTAssertTrue(refusal?.message.contains("animated PNG (APNG)") == true, refusal?.message ?? "")
                XCTAssertTrue(refusal?.hint.contains("still screenshot") == true)
            }
        }
    }
}
