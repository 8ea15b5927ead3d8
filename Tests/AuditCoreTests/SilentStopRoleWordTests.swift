@testable import AuditCore
@testable import AuditRules
import XCTest

/// `screen-reader.silent-stop` asks of every stop whether its name is a role word: ASCII
/// names are folded and compared byte by byte, and must be judged exactly as the
/// lower-cased name looked up in the word set is.
final class SilentStopRoleWordTests: XCTestCase {
    func testRoleWordsAreRecognisedAsTheLowerCasedNameInTheSetIs() {
        var generator = SeededGenerator()
        var names = SilentStopRule.roleWords.flatMap { [$0, $0.uppercased(), $0.capitalized, " \($0)", "\($0) ", $0 + "s", String($0.dropLast())] }
        // Non-ASCII: the Kelvin sign lower-cases to "k"; others do not fold to ASCII.
        names += ["LIN\u{212A}", "CHEC\u{212A}BOX", "Bütton", "İmage", "", "ımage", "BUTTON\u{301}", "Running shoes", "@[]`{", "Z"]
        let alphabet = Array("abcdeghiklmnoprstuvwxBCEGIKLNT [@`{ ")
        for _ in 0..<3_000 {
            let length = Int(generator.next() % 12)
            names.append(String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
        }
        for name in names {
            XCTAssertEqual(
                SilentStopRule.isRoleWord(name), SilentStopRule.roleWords.contains(name.lowercased()),
                "\"\(name)\", seed \(generator.seed)")
        }
    }
}
