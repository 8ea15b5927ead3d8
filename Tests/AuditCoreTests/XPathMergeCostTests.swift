@testable import AuditCore
import Foundation
import XCTest

/// The node-set merging libxml2's step limit does not count is estimated before an
/// XPath rule runs, and an expression over the limit is reported incomplete (issue 26).
final class XPathMergeCostTests: XCTestCase {
    func testStepsThatMergeAreFoundByShape() {
        let cases: [(String, [XPathMergeCost.Axis])] = [
            ("//*/following::*", [.document]),
            ("//*/following::*/preceding::*", [.document, .document]),
            ("(//element)/preceding::element", [.document]),
            ("//element[@role='button']/following-sibling::element", [.siblings]),
            ("//a/b/../following::c", [.document]),
            // One position per context node, a predicate's own context, the root's one child: nothing to merge.
            ("//*/following::*[1]", []),
            ("//*/following-sibling::*[last()]", []),
            ("//element[@label = preceding::element/@label]", []),
            ("/snapshot/following::*", []),
            ("following::*", []),
            ("//element[contains(@text, '//a/following::b')]", []),
        ]
        for (expression, expected) in cases {
            XCTAssertEqual(XPathMergeCost.mergingSteps(in: expression), expected, expression)
        }
    }

    func rules(_ expression: String) -> RuleSet {
        RuleSet(
            name: "x", entries: [],
            customRules: [
                XPathRule(
                    id: "custom.merge", title: "merge", expression: expression, severity: .warning,
                    message: "m", wcag: [])
            ])
    }

    func audit(_ elements: Int, _ expression: String) throws -> (AuditReport, TimeInterval) {
        let body = (0..<elements).map { #"<element id="e\#($0)" role="button" label="L\#($0)" frame="0,0,10,10"/>"# }.joined()
        let xml = TestSupport.native(body)
        let snapshot = try TestSupport.parse(xml)
        let started = Date()
        let report = Array(xml.utf8).withUnsafeBytes { Auditor.audit(snapshot, ruleSet: rules(expression), source: $0) }
        return (report, Date().timeIntervalSince(started))
    }

    /// 2,000 flat elements: `//*/following::*/preceding::*` took 5.7 s in libxml2 with
    /// every step counted under the limit; now it is refused in milliseconds, with why.
    func testMergingOverTheLimitIsReportedIncomplete() throws {
        let (report, seconds) = try audit(2_000, "//*/following::*/preceding::*")
        XCTAssertTrue(report.findings.isEmpty)
        let reason = try XCTUnwrap(report.incomplete.first { $0.incomplete.ruleID == "custom.merge" }?.incomplete.reason)
        XCTAssertTrue(reason.contains("merging the results"), reason)
        XCTAssertTrue(reason.contains("following::x[1]"), reason)
        XCTAssertLessThan(seconds, 1, "the refusal took \(seconds) s")
        // The same expression on a small screen runs and finds.
        let (small, _) = try audit(20, "//*/following::*/preceding::*")
        XCTAssertEqual(small.findings.count, 19, "the elements before the last one")
        XCTAssertTrue(small.incomplete.isEmpty)
        // A positional step merges nothing: it runs on the large screen too.
        let (positional, _) = try audit(2_000, "//element[@id='e5']/following::element[1]")
        XCTAssertEqual(positional.findings.count, 1)
    }
}
