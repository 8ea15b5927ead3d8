@testable import AuditCore
import Foundation
import XCTest

/// The byte writers reports are made of: numbers as the standard library's shortest form
/// of the rounded value, and JSON string escaping (eight bytes at a time) checked by an
/// independent parser.
final class TextWritingTests: XCTestCase {
    /// What the writers used to do with `String(Double)`: the reference.
    func reference(_ value: Double, decimals: Int) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let scale = pow(10, Double(decimals))
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    func written(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        DecimalWriter.append(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func testDecimalsMatchTheShortestFormOfTheRoundedValue() {
        var generator = SeededGenerator()
        for _ in 0..<20_000 {
            let whole =
                Double(Int64.random(in: -2_000_000_000_000_000...2_000_000_000_000_000, using: &generator)) / pow(10, Double(Int.random(in: 0...15, using: &generator))).rounded()
            XCTAssertEqual(written(whole.rounded(), decimals: 4), reference(whole.rounded(), decimals: 4), "\(whole.rounded())")
        }
        for _ in 0..<50_000 {
            let magnitude = Double.random(in: -6...14, using: &generator)
            let value = (Bool.random(using: &generator) ? 1 : -1) * pow(10, magnitude) * Double.random(in: 1..<10, using: &generator)
            for decimals in [3, 4] {
                XCTAssertEqual(written(value, decimals: decimals), reference(value, decimals: decimals), "\(value) to \(decimals)")
            }
        }
        for value in [
            0, 4.5, 4.4999, 4.50001, 0.0001, 0.00005, 0.00004, 1e-9, 12.3456789, 99999.99995, 2.675, 1e10 + 0.5,
            1e11, 1e11 + 0.25, 3e14 + 0.5, 1e15, 1e20, 123_456_789.123_456,
            999_999_999_999_999, 1e15 + 2, 4_503_599_627_370_496, 9_007_199_254_740_992, 1e16, 390, 44, 12_345_678,
        ] {
            for sign in [1.0, -1.0] {
                let signed = value * sign
                let expected = reference(signed, decimals: 4)
                XCTAssertEqual(written(signed, decimals: 4), expected == "-0" ? "0" : expected, "\(signed)")
            }
        }
        XCTAssertEqual(written(-0.0001, decimals: 3), "0", "negative zero prints as 0")
        XCTAssertEqual(written(.infinity, decimals: 3), "")
        XCTAssertEqual(String(decoding: JSON.number(.infinity).bytes, as: UTF8.self), "null")
        XCTAssertEqual(4.48.formattedForReport, "4.48")
        XCTAssertEqual((1.0 / 3).formattedForReport, "0.333")
    }

    func testEscapedStringsReadBackAsTheOriginal() throws {
        var generator = SeededGenerator()
        // Every ASCII byte alone, then random strings mixing plain text with the bytes that
        // need escapes at every offset of an eight-byte word.
        var samples: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let pieces = ["a", "bcdefgh", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", " ", "é", "日本", "🎉", "~", "!"]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...24, using: &generator)
            samples.append((0..<count).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined())
        }
        for sample in samples {
            var bytes: [UInt8] = []
            JSON.writeString(sample, to: &bytes)
            let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? String
            XCTAssertEqual(decoded, sample, String(decoding: bytes, as: UTF8.self))
            // Nothing below 0x20, and no DEL, goes out raw.
            XCTAssertFalse(bytes.contains { $0 < 0x20 || $0 == 0x7F }, sample.debugDescription)
        }
    }

    func testByteBufferHoldsWhatAnArrayWouldAcrossGrowth() {
        var generator = SeededGenerator()
        let buffer = ByteBuffer(capacity: 16)
        var sink: ByteBuffer = buffer
        var expected: [UInt8] = []
        for _ in 0..<2_000 {
            if Bool.random(using: &generator) {
                let byte = UInt8.random(in: 0...255, using: &generator)
                sink.write(byte: byte)
                expected.write(byte: byte)
            } else {
                let chunk = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                sink.write(contentsOf: chunk)
                expected.write(contentsOf: chunk)
            }
            XCTAssertEqual(buffer.count, expected.count)
        }
        XCTAssertEqual(buffer.bytes(from: 0), expected)
        XCTAssertEqual(buffer.bytes(from: 1_000), Array(expected[1_000...]))
        var json = ByteBuffer()
        JSON.object([("a", .array([.int(1), .number(2.5), .string("x\"y")])), ("b", .null)]).write(to: &json)
        XCTAssertEqual(String(decoding: json.bytes(from: 0), as: UTF8.self), #"{"a":[1,2.5,"x\"y"],"b":null}"#)
    }

    /// A role reads as people say it in messages; the evidence keeps the format's word.
    func testMessagesSayRolesAsPeopleDo() {
        let template = MessageTemplate("${role} has no accessible name")
        for (name, said) in [("other", "element"), ("textfield", "text field"), ("button", "button")] {
            var plain: [UInt8] = []
            template.append([(.role, .string(name))], to: &plain)
            XCTAssertEqual(String(decoding: plain, as: UTF8.self), "\(said) has no accessible name")
        }
    }

    func testTemplatesFillPlaceholdersAndEscapeForJSON() throws {
        let template = MessageTemplate("Label \"${label}\" ratio ${ratio}:1, ${count} items, ${missing}; $5 and ${unclosed")
        let evidence: Evidence = [(.label, .string("Play \"now\"\n")), (.ratio, .number(4.4999)), (.count, .int(3))]
        var plain: [UInt8] = []
        template.append(evidence, to: &plain)
        let expected = "Label \"Play \"now\"\n\" ratio 4.5:1, 3 items, ?; $5 and ${unclosed"
        XCTAssertEqual(String(decoding: plain, as: UTF8.self), expected)
        var json: [UInt8] = []
        Finding(ruleID: "r", resultID: "x", severity: .notice, wcag: [], element: nil, evidence: evidence, messageSource: .template(template))
            .writeMessageJSON(to: &json)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed]) as? String, expected)
    }

    /// The one trimming helper removes what Foundation's `trimmingCharacters(in:)` would
    /// with `.whitespaces` (labels in evidence) and `.whitespacesAndNewlines`, without Foundation.
    func testTrimmingMatchesFoundation() {
        let pieces = ["Play", "button", " ", "\t", "\n", "\u{00A0}", "\u{2003}", "\u{3000}", "\u{2028}", "播放", "é", "\r", "", "x"]
        var generator = SeededGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let label = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            XCTAssertEqual(
                label.trimming(.spaceSeparators), label.trimmingCharacters(in: .whitespaces),
                "\(Array(label.unicodeScalars))")
            XCTAssertEqual(
                label.trimming(), label.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(Array(label.unicodeScalars))")
            XCTAssertEqual(
                label.trimming(.spacesAndTabs), String(label.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()),
                "\(Array(label.unicodeScalars))")
        }
    }
}
