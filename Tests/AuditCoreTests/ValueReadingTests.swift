@testable import AuditCore
import XCTest

/// The byte-level value readers agree with Swift's own conversions and refuse what the
/// snapshot format (docs/snapshot-format.md) does not allow.
final class ValueReadingTests: XCTestCase {
    func number(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ValueScanner.number($0) }
    }

    func testNumbersMatchCorrectlyRoundedConversion() {
        var generator = SeededGenerator()
        for _ in 0..<20_000 {
            let integer = Int.random(in: -100_000...100_000, using: &generator)
            let fraction = Int.random(in: 0...999_999, using: &generator)
            let text = "\(integer).\(String(fraction).leftPadded(6))"
            XCTAssertEqual(number(text), Double(text), text)
        }
        for text in ["0", "-0", "+5", "0.1", "390", "1e3", "2.5E-2", " 12 ", "123456789012345678", "0.00000000001"] {
            XCTAssertEqual(number(text), Double(text.trimming()), text)
        }
        for text in ["", "-", ".", "1.2.3", "NaN", "nan", "Infinity", "inf", "1e309", "0x10", "1e", "12px", "1,5"] {
            XCTAssertNil(number(text), text)
        }
    }

    /// Frames are read in one pass when they are four plain decimals, and number by number
    /// otherwise: random frames of every form (signs, leading zeros, a bare point, blanks,
    /// exponents, 15 and 16 significant digits, 10 and 11 decimals) must read as the
    /// correctly rounded conversion of each part does.
    func testFramesOfEveryFormMatchTheirPartsConversion() {
        var generator = SeededGenerator()
        func part() -> String {
            let digits = String(Int.random(in: 0...999_999_999, using: &generator))
            let forms = [
                digits, "-" + digits, "+" + digits, "00" + digits, digits + ".", "." + digits, "-0",
                digits + "." + String(Int.random(in: 0...9_999_999_999, using: &generator)),
                "1234567890.12345", "1234567890.123456", "0.0000000001", "0.00000000001",
                " " + digits, digits + " ", digits + "e2", "1E-3", "-", "", "1.2.3", "12px",
            ]
            return forms[Int.random(in: 0..<forms.count, using: &generator)]
        }
        func reference(_ text: String) -> Rect? {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0).trimming()) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
                width >= 0, height >= 0
            else { return nil }
            return Rect(x: x, y: y, width: width, height: height)
        }
        var read = 0
        for _ in 0..<20_000 {
            let text = (0..<4).map { _ in part() }.joined(separator: ",")
            let frame = Array(text.utf8).withUnsafeBufferPointer { ValueScanner.frame($0) }
            XCTAssertEqual(frame, reference(text), text)
            if frame != nil { read += 1 }
        }
        XCTAssertGreaterThan(read, 1_000, "many of the frames are valid")
        for text in ["00012.50", "-0.5", "+7", "5.", ".25", "123456789012345", "1234567890123456", "0.0000000001", "0.00000000001"] {
            XCTAssertEqual(number(text), Double(text), text)
        }
    }

    func testBooleansAndFrames() {
        func boolean(_ text: String) -> Bool? { Array(text.utf8).withUnsafeBufferPointer { ValueScanner.boolean($0) } }
        XCTAssertEqual(["true", "TRUE", "1", "yes", "Yes"].map(boolean), [true, true, true, true, true])
        XCTAssertEqual(["false", "0", "no", "NO"].map(boolean), [false, false, false, false])
        XCTAssertEqual(["", "2", "on", "truth"].map(boolean), [nil, nil, nil, nil])
        func frame(_ text: String) -> Rect? { Array(text.utf8).withUnsafeBufferPointer { ValueScanner.frame($0) } }
        XCTAssertEqual(frame("1, 2.5,3,4"), Rect(x: 1, y: 2.5, width: 3, height: 4))
        XCTAssertEqual(frame("-5,-6,0,0"), Rect(x: -5, y: -6, width: 0, height: 0))
        XCTAssertNil(frame("1,2,3"))
        XCTAssertNil(frame("1,2,3,4,5"))
        XCTAssertNil(frame("1,2,-3,4"))
        func bounds(_ text: String) -> Rect? { Array(text.utf8).withUnsafeBufferPointer { ValueScanner.androidBounds($0) } }
        XCTAssertEqual(bounds("[0,66][1080,2340]"), Rect(x: 0, y: 66, width: 1080, height: 2274))
        XCTAssertNil(bounds("[0,0]"))
        XCTAssertNil(bounds("[0,0][1,1]x"))
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
