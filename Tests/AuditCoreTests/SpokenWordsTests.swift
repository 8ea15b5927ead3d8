@testable import AuditRules
import XCTest

/// The folding the transcript rules compare shown and said text with: lower case, words of
/// letters and digits joined by single spaces, words of digits alone dropped unless kept.
/// ASCII text is folded in place; held here to the words a plain split gives.
final class SpokenWordsTests: XCTestCase {
    /// The reference: split at every byte that is not an ASCII letter or digit.
    func reference(_ text: String, keepingNumbers: Bool) -> [UInt8] {
        let words = Array(text.utf8).split { byte in !((0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)) }
        let kept = words.filter { keepingNumbers || !$0.allSatisfy { (0x30...0x39).contains($0) } }
        return Array(kept.map { word in word.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 } }.joined(separator: [0x20]))
    }

    func testASCIITextFoldsToItsWords() {
        var random = SeededGenerator()
        let seed = random.seed
        let pieces = ["Buy", "now", "32", "7", "A1", "x", "IMG_0042", " ", "  ", ",", ", ", "-", "\t", "\r\n", "$4.99", "99%", "Z", "0", "zz9"]
        var buffer: [UInt8] = Array("left over from an earlier text".utf8)
        var dropped = 0
        for round in 0..<20_000 {
            let text = (0..<random.below(7)).map { _ in pieces[random.below(pieces.count)] }.joined()
            for keep in [false, true] {
                let expected = reference(text, keepingNumbers: keep)
                XCTAssertEqual(SpokenWords.fold(text.utf8, keepingNumbers: keep), expected, "seed \(seed) round \(round): \(text.debugDescription) keeping numbers \(keep)")
                SpokenWords.fold(Array(text.utf8), keepingNumbers: keep, into: &buffer)
                XCTAssertEqual(buffer, expected, "seed \(seed) round \(round): \(text.debugDescription) into a used buffer")
                if !keep, expected != reference(text, keepingNumbers: true) { dropped += 1 }
            }
        }
        XCTAssertGreaterThan(dropped, 1_000, "seed \(seed): numbers were dropped")
        XCTAssertEqual(SpokenWords.fold("32 Buy  now 7".utf8), Array("buy now".utf8))
        XCTAssertEqual(SpokenWords.fold("Buy 32".utf8, keepingNumbers: true), Array("buy 32".utf8))
    }

    /// Text past ASCII folds through Unicode's letters, into a used buffer as into a new one.
    func testOtherTextFoldsThroughUnicode() {
        var buffer: [UInt8] = Array("stale".utf8)
        for (text, expected) in [("Café 32 Öl", "café öl"), ("ΑΒΓ-δ", "αβγ δ"), ("日本 2", "日本")] {
            XCTAssertEqual(SpokenWords.fold(text.utf8), Array(expected.utf8), text)
            SpokenWords.fold(Array(text.utf8), into: &buffer)
            XCTAssertEqual(buffer, Array(expected.utf8), text)
        }
    }
}
