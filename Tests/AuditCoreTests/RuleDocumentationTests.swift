import AuditCore
import XCTest

/// `auditctl rules`' table keeps every cell whole.
final class RuleDocumentationTests: XCTestCase {
    func testLongIdsAreNotCut() {
        let id = "custom.a-very-long-team-rule-identifier-of-fifty-chars"
        let set = RuleSet(
            name: "team", entries: [],
            customRules: [
                XPathRule(id: id, title: "Placeholder text", expression: "//element", severity: .warning, message: "m", wcag: ["3.1.1", "4.1.2", "1.4.3"])
            ])
        let text = RuleDocumentation.text(rules: BuiltInRules.all, ruleSet: set)
        let row = text.split(separator: "\n").first { $0.hasPrefix(id) }
        XCTAssertNotNil(row, text)
        XCTAssertTrue(row?.contains("\(id)  warning ") == true, String(row ?? ""))
        XCTAssertTrue(row?.hasSuffix("Placeholder text (XPath)") == true, String(row ?? ""))
        // Built-in rows line up with it: every id starts its row and is followed by at least two spaces.
        for rule in BuiltInRules.all {
            XCTAssertTrue(text.contains(rule.description.id + "  "), rule.description.id)
        }
    }
}
