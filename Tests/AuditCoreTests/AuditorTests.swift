import AuditCore
import Foundation
import XCTest

/// The engine: deterministic output whatever the scheduling, document order then rule id,
/// suppression counted, fingerprints stable, reports as docs/findings.md says.
final class AuditorTests: XCTestCase {
    func example(_ name: String) throws -> (Snapshot, [UInt8]) {
        let bytes = [UInt8](try Data(contentsOf: TestSupport.examples.appendingPathComponent(name)))
        return (try SnapshotParser().parse(bytes), bytes)
    }

    func signature(_ report: AuditReport) -> [String] {
        report.findings.map { "\($0.finding.ruleID)|\($0.elementID ?? "-")|\($0.finding.message)|\($0.fingerprint)" }
            + report.incomplete.map { "incomplete|\($0.incomplete.ruleID)|\($0.elementID ?? "-")|\($0.incomplete.reason)" }
    }

    func testSameReportAThousandTimes() throws {
        let (snapshot, _) = try example("checkout.xml")
        let ruleSet = RuleSet.allBuiltIn
        let reference = signature(Auditor.audit(snapshot, ruleSet: ruleSet, concurrent: false))
        XCTAssertFalse(reference.isEmpty)
        for _ in 0..<1000 {
            XCTAssertEqual(signature(Auditor.audit(snapshot, ruleSet: ruleSet)), reference)
        }
    }

    /// The audit's time is the rules', then their findings': the findings' share (the
    /// daemon's `findings` phase) is part of the duration and grows with the findings — a
    /// screen of 3,000 findings spends more on them than one with a handful.
    func testTheFindingsShareOfTheDurationIsTimedApart() throws {
        let (snapshot, _) = try example("checkout.xml")
        let few = Auditor.audit(snapshot, ruleSet: .allBuiltIn, concurrent: false)
        XCTAssertGreaterThan(few.findings.count, 3)
        XCTAssertGreaterThan(few.findingsMilliseconds, 0)
        XCTAssertLessThan(few.findingsMilliseconds, few.durationMilliseconds)
        // 3,000 buttons with neither label nor size: findings on every one.
        let rows = (0..<3000).map { #"<element id="b\#($0)" role="button" frame="\#($0 % 30 * 12),\#($0 / 30 * 12),10,10"/>"# }
        let many = try SnapshotParser().parse(
            Array(("<snapshot version=\"1\" platform=\"ios\" width=\"390\" height=\"844\">" + rows.joined() + "</snapshot>").utf8))
        let report = Auditor.audit(many, ruleSet: .allBuiltIn, concurrent: false)
        XCTAssertGreaterThan(report.findings.count, 3000)
        XCTAssertGreaterThan(report.findingsMilliseconds, few.findingsMilliseconds)
        XCTAssertLessThan(report.findingsMilliseconds, report.durationMilliseconds)
    }

    /// Above the parallel threshold the rules and the rendering run concurrently: a screen
    /// of 3,000 elements with problems of many kinds, audited 40 times concurrently, gives
    /// the one-thread report each time.
    /// What the rules derive for themselves (the transcript) is let go before their
    /// findings are written, which keep only the element identities; asked for again, the
    /// transcript is made again, the same.
    func testTheRulesDerivationsAreLetGoBeforeTheFindingsAreWritten() throws {
        let (snapshot, _) = try example("checkout.xml")
        let digest = Transcript.of(snapshot).digest
        XCTAssertEqual(snapshot.memo.keys, ["transcript"])
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        XCTAssertGreaterThan(report.findings.count, 3)
        XCTAssertEqual(snapshot.memo.keys, ["element-identity"])
        XCTAssertEqual(Transcript.of(snapshot).digest, digest)
        // The findings read after the audit are those written by it.
        let again = Auditor.audit(try SnapshotParser().parse(try example("checkout.xml").1), ruleSet: .allBuiltIn)
        XCTAssertEqual(signature(report).map { $0.split(separator: "|").dropFirst().joined() }, signature(again).map { $0.split(separator: "|").dropFirst().joined() })
    }

    func testConcurrentAuditsEqualTheOneThreadAudit() throws {
        var body = ""
        for index in 0..<3_000 {
            let y = (index / 6) * 30, x = (index % 6) * 60
            switch index % 5 {
            case 0:
                body += ##"<element id="t\##(index)" role="text" text="Price \##(index)" frame="\##(x),\##(y),50,20" foreground="#999999" background="#FFFFFF" font-size="12"/>"##
            case 1: body += ##"<element id="b\##(index)" role="button" image="icon_\##(index)" frame="\##(x),\##(y),20,20"/>"##
            case 2: body += ##"<element id="d\##(index)" role="button" label="Details" frame="\##(x + 10),\##(y),44,44"/>"##
            case 3: body += ##"<element id="s\##(index)" role="switch" label="On" frame="\##(x),\##(y),51,31" foreground="#34C759"/>"##
            default: body += ##"<element id="l\##(index)" role="link" text="more" frame="\##(x),\##(y),30,14" foreground="#0000EE"/>"##
            }
        }
        let snapshot = try TestSupport.parse(TestSupport.native(body))
        XCTAssertGreaterThanOrEqual(snapshot.elements.count, Auditor.parallelThreshold, "the test must run the concurrent path")
        let reference = signature(Auditor.audit(snapshot, ruleSet: .allBuiltIn, concurrent: false))
        XCTAssertGreaterThan(reference.count, 1_000)
        for _ in 0..<40 {
            XCTAssertEqual(signature(Auditor.audit(snapshot, ruleSet: .allBuiltIn)), reference)
        }
    }

    func testOrderIsDocumentOrderThenRuleID() throws {
        let (snapshot, _) = try example("checkout.xml")
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        let keys = report.findings.map { ($0.finding.element ?? -1, $0.finding.ruleID) }
        for (previous, next) in zip(keys, keys.dropFirst()) {
            XCTAssertTrue(previous.0 < next.0 || (previous.0 == next.0 && previous.1 <= next.1), "\(previous) before \(next)")
        }
    }

    func testCheckoutFindings() throws {
        let (snapshot, _) = try example("checkout.xml")
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        func has(_ rule: String, _ element: String) -> Bool {
            report.findings.contains { $0.finding.ruleID == rule && $0.elementID == element }
        }
        XCTAssertTrue(has("label.missing", "close"))
        XCTAssertTrue(has("contrast.non-text", "close"))
        XCTAssertTrue(has("label.redundant-trait", "item-1-remove"))
        XCTAssertTrue(has("contrast.text", "item-1-price"))
        // #767676 passes 4.5:1 on white but not on the cell's #F2F2F7.
        let price = try XCTUnwrap(report.findings.first { $0.finding.ruleID == "contrast.text" && $0.elementID == "item-2-price" })
        XCTAssertEqual(price.finding.evidence("background"), .string("#F2F2F7"))
        XCTAssertEqual(price.finding.evidence("ratio"), .number(4.07))
        XCTAssertTrue(has("contrast.text", "terms"))
        XCTAssertFalse(has("contrast.text", "title"))
        let close = try XCTUnwrap(report.findings.first { $0.finding.ruleID == "label.missing" })
        XCTAssertEqual(close.finding.message, "button has no accessible name; VoiceOver reads the image name \"icon_close\"")
        XCTAssertEqual(close.line, 9)
        XCTAssertEqual(close.path, "/snapshot/element[1]/element[2]")
        XCTAssertEqual(close.frame, Rect(x: 350, y: 50, width: 24, height: 24))
    }

    func testReportJSONHasEverySpecField() throws {
        let (snapshot, _) = try example("checkout.xml")
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        let json = try JSONParser.parse(report.json.rendered())
        for key in ["audit", "snapshot", "ruleset", "duration_ms", "summary", "findings", "incomplete"] {
            XCTAssertNotNil(json[key], key)
        }
        XCTAssertEqual(json["snapshot"]?["elements"], .int(16))
        XCTAssertEqual(json["snapshot"]?["dialect"], .string("native"))
        XCTAssertEqual(json["snapshot"]?["app"], .string("com.example.shop"))
        let first = try XCTUnwrap(json["findings"]?.arrayValue?.first)
        for key in ["rule", "severity", "wcag", "element", "path", "line", "frame", "message", "evidence", "fingerprint"] {
            XCTAssertNotNil(first[key], key)
        }
        XCTAssertEqual(json["summary"]?["error"]?.intValue, report.count(.error))
        XCTAssertEqual(report.id.count, 26)
    }

    func testFingerprintsAreStableAcrossBuildsAndDistinct() throws {
        let (snapshot, bytes) = try example("checkout.xml")
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "build=\"1842\"", with: "build=\"1843\"")
        // Another build moves an element: same id, same fingerprint.
        text = text.replacingOccurrences(of: "frame=\"350,50,24,24\"", with: "frame=\"340,52,24,24\"")
        let moved = try SnapshotParser().parse(text)
        let first = Auditor.audit(snapshot, ruleSet: .allBuiltIn).findings.map(\.fingerprint)
        let second = Auditor.audit(moved, ruleSet: .allBuiltIn).findings.map(\.fingerprint)
        XCTAssertEqual(first, second)
        XCTAssertEqual(Set(first).count, first.count, "fingerprints are distinct within a report")
    }

    func testA11yIgnoreSuppressesSubtreeAndCounts() throws {
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                """
                <element id="group" role="container" a11y-ignore="label.*">
                  <element id="a" role="button" frame="0,0,44,44"/>
                  <element id="b" role="button" label="Play button" frame="50,0,44,44"/>
                </element>
                <element id="c" role="button" frame="100,0,44,44"/>
                """))
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        let labelFindings = report.findings.filter { $0.finding.ruleID.hasPrefix("label.") }.map(\.elementID)
        XCTAssertEqual(labelFindings, ["c"])
        XCTAssertEqual(report.suppressed["label.missing"], 1)
        XCTAssertEqual(report.suppressed["label.redundant-trait"], 1)
        XCTAssertEqual(report.json["summary"]?["suppressed"], .int(2))
    }

    /// Findings are placed in parallel chunks of 256, straight into the report's storage;
    /// suppressed findings leave gaps that must close up, in order, in every chunk.
    func testSuppressionsAcrossParallelChunksKeepOrderAndCounts() throws {
        let count = 2_100
        let body = (0..<count).map { index in
            let ignore = index % 3 == 0 ? #" a11y-ignore="label.missing""# : ""
            return #"<element id="b\#(index)" role="button" frame="0,\#(index * 50),44,44"\#(ignore)/>"#
        }.joined(separator: "\n")
        let snapshot = try TestSupport.parse(TestSupport.native(body))
        let entry = try XCTUnwrap(RuleSet.allBuiltIn.entries.first { $0.id == "label.missing" })
        let ruleSet = RuleSet(name: "labels", entries: [entry])
        let expected = (0..<count).filter { $0 % 3 != 0 }.map { "b\($0)" }
        for concurrent in [true, false] {
            let report = Auditor.audit(snapshot, ruleSet: ruleSet, concurrent: concurrent)
            XCTAssertEqual(report.findings.map(\.elementID), expected)
            XCTAssertEqual(report.suppressed["label.missing"], count / 3)
            let rendered = report.json["findings"]?.arrayValue?.compactMap { $0["element"]?.stringValue }
            XCTAssertEqual(rendered, expected)
        }
    }

    /// The report's findings are read from the rules' own arrays through slots: each one
    /// read back (whole, or one field in place) is the finding the report wrote there, and
    /// what was suppressed or left out is not among them.
    func testFindingsReadThroughSlotsAreTheOnesWritten() throws {
        let count = 2_100
        let body = (0..<count).map { index in
            let ignore = index % 5 == 0 ? #" a11y-ignore="label.missing""# : ""
            let size = index % 2 == 0 ? 20 : 44
            return #"<element id="b\#(index)" role="button" frame="0,\#(index * 50),\#(size),\#(size)"\#(ignore)/>"#
        }.joined(separator: "\n")
        let snapshot = try TestSupport.parse(TestSupport.native(body))
        for concurrent in [true, false] {
            let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn, concurrent: concurrent)
            let written = try XCTUnwrap(report.json["findings"]?.arrayValue)
            XCTAssertEqual(report.findings.count, written.count)
            XCTAssertGreaterThan(report.findings.count, count / 2)
            for (index, json) in written.enumerated() {
                let located = report.findings[index]
                XCTAssertEqual(located.finding.ruleID, json["rule"]?.stringValue)
                XCTAssertEqual(report.findings.ruleID(at: index), json["rule"]?.stringValue)
                XCTAssertEqual(report.findings.severity(at: index).rawValue, json["severity"]?.stringValue)
                XCTAssertEqual(located.elementID, json["element"]?.stringValue)
                XCTAssertEqual(located.fingerprint, json["fingerprint"]?.stringValue)
                XCTAssertEqual(located.defect, json["defect"]?.stringValue)
                XCTAssertEqual(located.finding.message, json["message"]?.stringValue)
            }
            XCTAssertFalse(
                report.findings.contains { $0.finding.ruleID == "label.missing" && $0.elementID.flatMap { Int($0.dropFirst()) }.map { $0 % 5 == 0 } == true })
            XCTAssertEqual(report.suppressed["label.missing"], count / 5)
            let summary = try XCTUnwrap(report.json["summary"])
            for severity in [Severity.error, .warning, .notice] {
                XCTAssertEqual(report.count(severity), summary[severity.rawValue]?.intValue)
            }
            XCTAssertEqual(report.findings.defectCount, summary["defects"]?.intValue)
            XCTAssertEqual(report.findings.defectCount, Set(report.findings.map(\.defect)).count)
        }
    }

    func testDialectsWithoutColoursAreIncompleteNotPassed() throws {
        let file = TestSupport.corpus.appendingPathComponent("android/ErickPenafiel__facebook-app-testing__login.xml")
        let snapshot = try SnapshotParser().parse([UInt8](try Data(contentsOf: file)))
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        XCTAssertFalse(report.findings.contains { $0.finding.ruleID == "contrast.text" })
        XCTAssertTrue(report.incomplete.contains { $0.incomplete.ruleID == "contrast.text" && $0.incomplete.reason.contains("no colours") })
        XCTAssertTrue(report.incomplete.contains { $0.incomplete.ruleID == "color-only.group" })
    }

    func testEveryCorpusDumpAudits() throws {
        let library = try RuleSetLibrary.load(directories: [TestSupport.packageRoot.appendingPathComponent("Rules").path])
        for folder in ["ios", "android"] {
            let directory = TestSupport.corpus.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
                let snapshot = try SnapshotParser().parse(bytes)
                let ruleSet = try XCTUnwrap(library.defaultSet(for: snapshot.platform))
                let report = bytes.withUnsafeBytes { Auditor.audit(snapshot, ruleSet: ruleSet, source: $0) }
                XCTAssertEqual(report.ruleSet, folder == "ios" ? "ios-default" : "android-default")
                for finding in report.findings where finding.finding.element != nil {
                    XCTAssertNotNil(finding.line, name)
                    XCTAssertNotNil(finding.path, name)
                }
            }
        }
    }
}
