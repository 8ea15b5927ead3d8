@testable import AuditRules
import XCTest

/// What OCR reads is compared with the dump's text in letters (issue 54): OCR's spaces
/// between ideographs are not the text's, and one ideograph read wrong is one edit, not the
/// three bytes it is written in.
final class ScreenTextComparisonTests: XCTestCase {
    func testIdeographsAreComparedAsLetters() {
        let shown = ScreenText.fold("设置中心的通知")
        XCTAssertEqual(ScreenText.fold("设 置 中 心"), ScreenText.fold("设置中心"), "OCR's spaces between ideographs")
        XCTAssertTrue(ScreenText.contains(shown, ScreenText.fold("设 置 中 心")))
        XCTAssertTrue(ScreenText.contains(shown, ScreenText.fold("设置申心的通知")), "one ideograph read wrong")
        XCTAssertFalse(ScreenText.contains(shown, ScreenText.fold("申请退款")), "other words")
        // Korean keeps the spaces between its words.
        XCTAssertEqual(ScreenText.fold("설정 메뉴"), SpokenWords.fold(Array("설정 메뉴".utf8), keepingNumbers: true))
        // Latin text as before: a letter read wrong in a word of five or more.
        XCTAssertTrue(ScreenText.contains(ScreenText.fold("Notifications and sounds"), ScreenText.fold("Notificatlons")))
    }
}
