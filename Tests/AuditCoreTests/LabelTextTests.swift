import AuditCore
import AuditRules
import XCTest

/// The byte-level tests the label rules run on every name, against the same questions
/// asked of Unicode scalars (differential, seeded).
final class LabelTextTests: XCTestCase {
    func testPrivateUseGlyphsAreFoundInTheBytesAsInTheScalars() {
        var random = SeededGenerator()
        let seed = random.seed
        // Code points around every boundary the byte test draws, and ordinary text.
        let picks: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0xA0...0x24F, 0x4E00...0x4E80, 0xD7F0...0xD7FF, 0xE000...0xE010,
            0xF8F0...0xF8FF, 0xF900...0xF910, 0xFFF0...0xFFFD, 0xEFFF0...0xEFFFF,
            0xF0000...0xF0010, 0xFFFF0...0xFFFFD, 0x100000...0x100010, 0x10FFF0...0x10FFFD, 0x1F600...0x1F64F,
        ]
        for round in 0..<2_000 {
            var text = ""
            for _ in 0..<(1 + random.below(6)) {
                let range = picks[random.below(picks.count)]
                let value = range.lowerBound + UInt32(random.below(Int(range.upperBound - range.lowerBound) + 1))
                if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
            }
            let expected = text.unicodeScalars.contains { (0xE000...0xF8FF).contains($0.value) || $0.value >= 0xF0000 }
            XCTAssertEqual(text.unicodeScalars.contains(where: LabelText.isPrivateUse), expected, "seed \(seed) round \(round)")
            XCTAssertEqual(
                LabelText.holdsPrivateUseGlyph(Array(text.utf8)[...]), expected,
                "seed \(seed) round \(round): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// The comparison hash (trimmed and folded in place, for every element) is the hash of
    /// the comparison key the duplicate rules compare, nil exactly when the key is empty:
    /// seeded labels with white space around and inside, capitals and non-ASCII letters.
    func testTheComparisonHashIsTheHashOfTheComparisonKey() throws {
        var random = SeededGenerator()
        let seed = random.seed
        let pieces = [" ", "&#9;", "&#10;", "&#13;", "a", "Z", "Pay", "PAY now", "é", "Ä", "→", "0", "&amp;", "&#160;"]
        var markup = ""
        for index in 0..<600 {
            let label = (0..<random.below(7)).map { _ in pieces[random.below(pieces.count)] }.joined()
            markup += #"<element id="e\#(index)" role="button" label="\#(label)" frame="0,\#(index),10,10"/>"#
        }
        let snapshot = try TestSupport.parse(TestSupport.native(markup))
        var empty = 0
        for index in snapshot.elements.indices {
            let ref = snapshot.elements[index].label
            let key = LabelText.comparisonKey(ref, of: snapshot)
            var hash = FNV1a()
            key.withUnsafeBufferPointer { hash.add($0) }
            XCTAssertEqual(LabelText.comparisonHash(ref, of: snapshot), key.isEmpty ? nil : hash.value, "seed \(seed): element \(index) \(key)")
            if key.isEmpty { empty += 1 }
        }
        XCTAssertGreaterThan(empty, 0, "seed \(seed): some labels are only white space")
    }

    /// The byte filter of `label.filename` never drops a label its pattern would report:
    /// seeded labels built from the pieces file names and ordinary words are made of.
    func testTheFileNameByteFilterKeepsEveryLabelThePatternReports() {
        var random = SeededGenerator()
        let seed = random.seed
        let pieces = [
            "IMG_", "img-", "DSC_", "dscn", "PXL_", "Screenshot_", "ic_", "btn-", "icon", "image", "photo", "logo_",
            "Row", "Page", "of", "close", "back", " ", "  ", "\t", "_", "-", ".", "png", "jpg", "1", "42", "2024",
            "A", "b", "\u{00A0}", "é", "Ω", "\n",
        ]
        var reported = 0
        for round in 0..<20_000 {
            let label = (0..<(1 + random.below(5))).map { _ in pieces[random.below(pieces.count)] }.joined()
            guard LabelFilenameRule.pattern(of: label, image: nil) != nil else { continue }
            reported += 1
            XCTAssertTrue(LabelFilenameRule.mayBeFileName(Array(label.utf8)[...]), "seed \(seed) round \(round): \(label.debugDescription) is a file name the filter drops")
        }
        XCTAssertGreaterThan(reported, 1_000, "seed \(seed): the labels reach the patterns")
        XCTAssertFalse(LabelFilenameRule.mayBeFileName(Array("Row 12".utf8)[...]))
        XCTAssertTrue(LabelFilenameRule.mayBeFileName(Array("IMG_0042 copy".utf8)[...]))
    }
    /// `label.filename`'s byte verdict gives ``LabelFilenameRule/pattern(of:image:)``'s
    /// answer for every ASCII label, and leaves every other label to it: seeded labels of
    /// file-name pieces, words, cases, white space (CR LF, one character as a string) and
    /// bytes past ASCII.
    func testTheByteVerdictIsThePatternsAnswerForASCIILabels() {
        var random = SeededGenerator()
        let seed = random.seed
        let pieces = [
            "IMG_", "img-", "DSC_", "dscn", "PXL_", "Screenshot_", "screenshot-", "ic_", "IC-", "btn-", "Button_", "icon", "image",
            "Photo", "picture", "logo_", "sf-", "ui_", "UI", "view", "graphic", "Row", "Page", "of", "close", "back", "H", " ", "  ",
            "\t", "\r\n", "\u{0B}", "_", "-", ".", "..", "png", "JPG", "jpeg", "heic", "tiff", "1", "42", "2024", "A", "b", "z",
            "\u{00A0}", "é", "Ω", "\n", "\u{2028}",
        ]
        var asciiReported = 0, asciiJudged = 0
        for round in 0..<40_000 {
            let label = (0..<(1 + random.below(5))).map { _ in pieces[random.below(pieces.count)] }.joined()
            let verdict = LabelFilenameRule.byteVerdict(Array(label.utf8)[...])
            let expected = LabelFilenameRule.pattern(of: label, image: nil)
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                asciiJudged += 1
                if expected != nil { asciiReported += 1 }
                XCTAssertEqual(verdict, expected.map { .fileName($0) } ?? .notAFileName, "seed \(seed) round \(round): \(label.debugDescription)")
            } else {
                XCTAssertEqual(verdict, .needsString, "seed \(seed) round \(round): \(label.debugDescription)")
            }
        }
        XCTAssertGreaterThan(asciiReported, 2_000, "seed \(seed): the labels reach the patterns")
        XCTAssertGreaterThan(asciiJudged - asciiReported, 2_000, "seed \(seed): and labels that are none")
        for label in ["H123", "SKU-42", "image_2", "Row 12", "A.png", "a.PNG", "IMG 0042", "ic__", "icons_1", "x_Y"] {
            XCTAssertEqual(
                LabelFilenameRule.byteVerdict(Array(label.utf8)[...]),
                LabelFilenameRule.pattern(of: label, image: nil).map { .fileName($0) } ?? .notAFileName, label)
        }
    }

    /// Each of `label.filename`'s patterns, and labels that are none of them.
    func testEachFileNamePattern() {
        let cases: [(String, String?)] = [
            ("IMG_2041.JPG", "image file extension"), ("img_2041", "camera file name"), ("DSCN0042", "camera file name"),
            ("Screenshot-2024", "camera file name"), ("ic_close", "asset prefix ic_"), ("icon-back", "asset prefix icon-"),
            ("BTN_OK", "asset prefix btn_"), ("image12", "generic name with a number"), ("close_button", "snake_case identifier"),
            ("H12", nil), ("Row 12", nil), ("Sign in", nil), ("icons", nil), ("Close_Button", nil), ("img_ cover", nil),
        ]
        for (label, expected) in cases { XCTAssertEqual(LabelFilenameRule.pattern(of: label, image: nil), expected, label) }
        XCTAssertEqual(LabelFilenameRule.pattern(of: "Cart", image: "cart"), "the drawn image's name")
    }
}
