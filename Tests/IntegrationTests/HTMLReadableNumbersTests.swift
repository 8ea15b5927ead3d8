import AuditFormats
import XCTest

/// The HTML report's messages with sizes as people read them (issue 32).
final class HTMLReadableNumbersTests: XCTestCase {
    func testSizesAreCutToOneDecimalAndNothingElseChanges() {
        XCTAssertEqual(HTMLText.readable("Target 102.857×38.857 dp is smaller than the platform's 48×48 dp"), "Target 102.8×38.8 dp is smaller than the platform's 48×48 dp")
        // Cut, not rounded: under the minimum stays under it.
        XCTAssertEqual(HTMLText.readable("Target 47.96×48 dp"), "Target 47.9×48 dp")
        XCTAssertEqual(HTMLText.readable("text 11.25 pt, 3.5 px"), "text 11.2 pt, 3.5 px")
        // Ratios, versions and plain numbers are the rule's.
        XCTAssertEqual(HTMLText.readable("Contrast 4.478:1 is below 4.5:1"), "Contrast 4.478:1 is below 4.5:1")
        XCTAssertEqual(HTMLText.readable("WCAG 1.4.11 and 12.345 items"), "WCAG 1.4.11 and 12.345 items")
    }
}
