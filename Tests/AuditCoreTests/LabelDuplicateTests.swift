@testable import AuditCore
import XCTest

/// `label.duplicate` over long runs of siblings: past sixteen targets the rule indexes
/// the labels it has seen, and must report exactly what the short scan would.
final class LabelDuplicateTests: XCTestCase {
    func duplicates(_ labels: [String]) throws -> [String] {
        let body = labels.enumerated().map { index, label in
            #"<element id="t\#(index)" role="button" label="\#(label)" frame="\#(index * 50),0,44,44"/>"#
        }.joined(separator: "\n")
        let snapshot = try TestSupport.parse(TestSupport.native(body))
        let entry = try XCTUnwrap(RuleSet.allBuiltIn.entries.first { $0.id == "label.duplicate" })
        return Auditor.audit(snapshot, ruleSet: RuleSet(name: "d", entries: [entry])).findings.compactMap(\.elementID)
    }

    /// What the rule should report: every target whose trimmed, lower-cased label an
    /// earlier sibling already had.
    func expected(_ labels: [String]) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for (index, label) in labels.enumerated() {
            let key = label.trimming().lowercased()
            guard !key.isEmpty else { continue }
            if !seen.insert(key).inserted { result.append("t\(index)") }
        }
        return result
    }

    func testShortAndLongSiblingRuns() throws {
        var generator = SeededGenerator()
        let words = ["Play", "play ", " PLAY", "Pause", "Café", "CAFÉ", "Next", "Back", "Share", "Buy"]
        for count in [3, 15, 16, 17, 18, 40, 120] {
            let labels = (0..<count).map { index in
                Int.random(in: 0..<3, using: &generator) == 0
                    ? words.randomElement(using: &generator) ?? "Play"
                    : "Item \(index)"
            }
            XCTAssertEqual(try duplicates(labels), expected(labels), "\(labels)")
        }
    }
}
