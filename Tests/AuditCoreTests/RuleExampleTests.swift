import AuditCore
import XCTest

/// Every rule's own examples are its tests (SwiftLint's lesson): each triggering example
/// must report exactly the elements it names, each non-triggering one nothing.
final class RuleExampleTests: XCTestCase {
    func testEveryRuleHasMetadataAndExamples() {
        var ids = Set<String>()
        for rule in BuiltInRules.all {
            let description = rule.description
            XCTAssertTrue(ids.insert(description.id).inserted, "duplicate id \(description.id)")
            XCTAssertFalse(description.title.isEmpty, description.id)
            XCTAssertGreaterThan(description.help.count, 80, description.id)
            XCTAssertFalse(description.messages.isEmpty, description.id)
            XCTAssertTrue(description.examples.contains { !$0.triggers.isEmpty }, "\(description.id) needs a triggering example")
            XCTAssertTrue(description.examples.contains { $0.triggers.isEmpty }, "\(description.id) needs a non-triggering example")
            for criterion in description.wcag {
                XCTAssertNotNil(WCAGCriteria.understandingURL(criterion), "\(description.id): unknown WCAG \(criterion)")
            }
        }
        XCTAssertEqual(ids.count, BuiltInRules.all.count, "rule ids are unique")
    }

    func testEveryExample() throws {
        var checked = 0
        for rule in BuiltInRules.all {
            let description = rule.description
            for example in description.examples {
                let snapshot: Snapshot
                do {
                    snapshot = try TestSupport.snapshot(of: example)
                } catch {
                    XCTFail("\(description.id) example at line \(example.line) does not parse: \(error)")
                    continue
                }
                let report = Auditor.audit(snapshot, ruleSet: .only(rule, parameters: example.parameters))
                let reported = report.findings.map { ($0.elementID ?? "<snapshot>", $0.finding.resultID) }
                let unmatched = Self.unmatched(reported: reported, expected: example.triggers)
                XCTAssertTrue(
                    unmatched.findings.isEmpty && unmatched.expected.isEmpty,
                    "\(description.id) example at line \(example.line): reported but not expected \(unmatched.findings), expected but not reported \(unmatched.expected): \(report.findings.map(\.finding.message))"
                )
                for finding in report.findings {
                    XCTAssertEqual(finding.finding.ruleID, description.id)
                    XCTAssertFalse(finding.finding.message.contains("${"), finding.finding.message)
                    XCTAssertFalse(finding.finding.message.contains("?"), "unfilled placeholder: \(finding.finding.message)")
                    if let severity = example.severity {
                        XCTAssertEqual(finding.finding.severity, severity, "\(description.id) example at line \(example.line): \(finding.finding.message)")
                    }
                }
                let incomplete = Set(report.incomplete.compactMap { $0.incomplete.element == nil ? "<snapshot>" : $0.elementID })
                for id in example.incomplete {
                    XCTAssertTrue(
                        incomplete.contains(id), "\(description.id) example at line \(example.line): \(id) should be incomplete; got \(report.incomplete.map(\.incomplete.reason))")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 80)
    }

    /// Matches findings to an example's expectations one to one: an entry `id` is one
    /// finding on that element, `id:result` one finding with that result. What is left on
    /// either side fails the example — a finding reported twice included.
    static func unmatched(reported: [(element: String, result: String)], expected: [String])
        -> (findings: [String], expected: [String])
    {
        var findings = reported
        var left: [String] = []
        // Entries naming a result first, so that a plain id does not take their finding.
        for entry in expected.sorted(by: { ($0.contains(":") ? 0 : 1) < ($1.contains(":") ? 0 : 1) }) {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            let index = findings.firstIndex { $0.element == parts[0] && (parts.count == 1 || $0.result == parts[1]) }
            if let index { findings.remove(at: index) } else { left.append(entry) }
        }
        return (findings.map { "\($0.element):\($0.result)" }, left)
    }

    /// The matching itself fails when it should.
    func testExpectationsAreOnePerFinding() {
        XCTAssertTrue(Self.unmatched(reported: [("a", "x")], expected: ["a"]).findings.isEmpty)
        XCTAssertEqual(Self.unmatched(reported: [("a", "x"), ("a", "x")], expected: ["a"]).findings, ["a:x"], "a duplicate finding fails")
        XCTAssertEqual(Self.unmatched(reported: [("a", "x")], expected: ["a", "a"]).expected, ["a"])
        XCTAssertEqual(Self.unmatched(reported: [("a", "x"), ("a", "y")], expected: ["a:y", "a"]).findings, [])
        XCTAssertEqual(Self.unmatched(reported: [("a", "x")], expected: ["a:y"]).expected, ["a:y"])
    }
}
