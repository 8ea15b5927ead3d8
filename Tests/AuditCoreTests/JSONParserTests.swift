import AuditCore
import Foundation
import XCTest

/// The JSON reader (rule sets, the daemon's answers to auditctl) takes RFC 8259 numbers
/// and nothing looser, and agrees with Foundation's reader on what it accepts.
final class JSONParserTests: XCTestCase {
    func testNumbersFollowRFC8259() throws {
        let accepted: [(String, JSON)] = [
            ("0", .int(0)), ("-0", .int(0)), ("12", .int(12)), ("-7", .int(-7)), ("1.5", .number(1.5)), ("-0.25", .number(-0.25)),
            ("1e3", .number(1000)), ("2E-2", .number(0.02)), ("3e+1", .number(30)), ("0.0", .number(0)),
        ]
        for (text, value) in accepted {
            XCTAssertEqual(try JSONParser.parse("[\(text)]"), .array([value]), text)
        }
        for text in ["01", "+1", ".5", "5.", "1e", "1e+", "-", "--1", "0x10", "1.e3", "-.5", "00", "1e309", "Infinity", "NaN"] {
            XCTAssertThrowsError(try JSONParser.parse("[\(text)]"), text)
        }
    }

    /// Seeded random number-like text: accepted here exactly when Foundation accepts it.
    func testAgreesWithFoundationOnNumberLikeText() throws {
        var generator = SeededGenerator()
        let seed = generator.seed
        let alphabet = Array("0123456789.eE+-")
        for _ in 0..<3_000 {
            let length = 1 + Int(generator.next() % 6)
            let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let ours = (try? JSONParser.parse("[\(text)]")) != nil
            let foundation = (try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8))) != nil
            XCTAssertEqual(ours, foundation, "\(text) (seed \(seed))")
        }
    }

    /// Surrogate escapes: a pair is one character; a surrogate alone is U+FFFD and the
    /// escape after it is read as itself (a high surrogate before "\u0041" trapped).
    func testSurrogateEscapes() throws {
        let cases: [(String, String)] = [
            (#""\ud83d\ude00""#, "😀"), (#""\ud800\u0041""#, "\u{FFFD}A"), (#""\udc00""#, "\u{FFFD}"),
            (#""\ud800""#, "\u{FFFD}"), (#""\ud800x""#, "\u{FFFD}x"), (#""\ud800\ud800\udc00""#, "\u{FFFD}\u{10000}"),
            (#""\udbff\udfff""#, "\u{10FFFF}"), (#""\ud800\n""#, "\u{FFFD}\n"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try JSONParser.parse(text), .string(expected), text)
        }
        XCTAssertThrowsError(try JSONParser.parse(#""\ud800\u00""#))
    }
}
