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

    /// The screen-wide pass: a name said by controls that are not siblings (one button a
    /// row) is one finding, on the first of them in document order, counting them all and
    /// naming the next three. Groups interleave through the document and are found by
    /// sorting hashes, so the reference here groups with a dictionary instead.
    func testRepeatedNamesAcrossRowsAreOneFindingEachOnTheFirstControl() throws {
        var generator = SeededGenerator()
        let words = ["Details", "details ", " DETAILS", "Add star", "Café", "CAFÉ", "Share", "Buy"]
        for rows in [2, 5, 40, 300] {
            let labels = (0..<rows).map { index in
                Int.random(in: 0..<2, using: &generator) == 0 ? words.randomElement(using: &generator) ?? "Buy" : "Row \(index)"
            }
            let body = labels.enumerated().map { index, label in
                #"<element id="r\#(index)" role="container" frame="0,\#(index * 50),390,50"><element id="b\#(index)" role="button" label="\#(label)" frame="300,\#(index * 50),44,44"/></element>"#
            }.joined(separator: "\n")
            let snapshot = try TestSupport.parse(TestSupport.native(body))
            let entry = try XCTUnwrap(RuleSet.allBuiltIn.entries.first { $0.id == "label.duplicate" })
            let report = Auditor.audit(snapshot, ruleSet: RuleSet(name: "d", entries: [entry]))
            let found = report.findings.map { found in
                [found.elementID ?? "", found.finding.evidence("count")?.intValue.map(String.init) ?? "", found.finding.evidence("others")?.stringValue ?? ""]
            }
            var groups: [String: [Int]] = [:]
            var order: [String] = []
            for (index, label) in labels.enumerated() {
                let key = label.trimming().lowercased()
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(index)
            }
            let expected = order.compactMap { key -> (Int, [String])? in
                guard let members = groups[key], members.count > 1 else { return nil }
                var others = members.dropFirst().prefix(3).map { "b\($0)" }.joined(separator: ", ")
                if members.count > 4 { others += " and \(members.count - 4) more" }
                return (members[0], ["b\(members[0])", String(members.count), others])
            }.sorted { $0.0 < $1.0 }.map(\.1)
            XCTAssertEqual(found, expected, "\(rows) rows, seed \(generator.seed): \(labels)")
        }
    }

    /// A name its spoken ancestor already says is not heard twice: a row cell named "Open"
    /// with an "Open" button inside counts once, while a button saying "Open" inside a cell
    /// named otherwise counts — whatever the order of ancestors in the document.
    func testANameItsSpokenAncestorSaysIsNotCountedAgain() throws {
        let rows = [("Open", "Open"), ("Close", "Open"), ("Open", "open "), ("Share", "Share"), ("Open", "Edit")]
        let body = rows.enumerated().map { index, row in
            #"<element id="r\#(index)" role="container" frame="0,\#(index * 60),390,60"><element id="c\#(index)" role="cell" interactive="true" label="\#(row.0)" frame="0,\#(index * 60),390,60"><element id="b\#(index)" role="button" label="\#(row.1)" frame="300,\#(index * 60),44,44"/></element></element>"#
        }.joined(separator: "\n")
        let snapshot = try TestSupport.parse(TestSupport.native(body))
        let entry = try XCTUnwrap(RuleSet.allBuiltIn.entries.first { $0.id == "label.duplicate" })
        let report = Auditor.audit(snapshot, ruleSet: RuleSet(name: "d", entries: [entry]))
        let found = report.findings.map { [$0.elementID ?? "", $0.finding.evidence("count")?.intValue.map(String.init) ?? "", $0.finding.evidence("others")?.stringValue ?? ""] }
        // "open": c0, b1, c2, c4 (b0 and b2 repeat their cell); "share": c3 alone (b3 repeats it).
        XCTAssertEqual(found, [["c0", "4", "b1, c2, c4"]])
    }
}
