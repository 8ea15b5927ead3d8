import AuditCore
@testable import AuditDaemonKit
@testable import AuditTransport
import Foundation
import XCTest

/// `auditd_findings_total` counts every finding of every audit by rule and severity.
final class MetricsTests: XCTestCase {
    func report(_ name: String) throws -> AuditReport {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let bytes = [UInt8](try Data(contentsOf: examples.appendingPathComponent(name)))
        return Auditor.audit(try SnapshotParser().parse(bytes), ruleSet: .allBuiltIn)
    }

    func testFindingCountsMatchTheReportAndReachTheExposition() throws {
        let metrics = Metrics()
        var expected: [String: Int] = [:]
        for name in ["checkout.xml", "mailbox.xml", "settings.xml", "notecards.xml"] {
            let report = try report(name)
            var own: [String: Int] = [:]
            for located in report.findings { own["\(located.finding.ruleID)|\(located.finding.severity.rawValue)", default: 0] += 1 }
            XCTAssertEqual(Metrics.findingCounts(report), own, name)
            XCTAssertGreaterThan(own.count, 1, name)
            expected.merge(own, uniquingKeysWith: +)
            metrics.auditFinished(status: 200, seconds: 0.002, findingCounts: Metrics.findingCounts(report))
        }
        let text = metrics.render(queueDepth: 0, inFlight: 0, workers: 2, journal: nil, ruleSets: 4, uptime: 1)
        for (key, count) in expected {
            let parts = key.split(separator: "|").map(String.init)
            XCTAssertTrue(
                text.contains("auditd_findings_total{rule=\"\(parts[0])\",severity=\"\(parts[1])\"} \(count)\n"),
                "\(key) \(count) in\n\(text)")
        }
    }

    /// `auditd_audit_phase_seconds_total` adds up the phases of every answered audit.
    func testPhaseTotalsAddUpEveryAuditsTiming() {
        let metrics = Metrics(phases: AuditStage.allCases.map(\.rawValue))
        var first = ServerTiming()
        first.add(AuditStage.receive, from: 1_000_000, to: 3_500_000)
        first.add(AuditStage.parse, milliseconds: 40)
        first.add(AuditStage.journal, milliseconds: 2.5)
        var second = ServerTiming()
        second.add(AuditStage.parse, milliseconds: 60)
        second.add(AuditStage.rules, milliseconds: 12.25)
        second.add(AuditStage.findings, milliseconds: 0.5)
        metrics.auditPhases(first)
        metrics.auditPhases(second)
        let text = metrics.render(queueDepth: 0, inFlight: 0, workers: 2, journal: nil, ruleSets: 4, uptime: 1)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("auditd_audit_phase_seconds_total{") }
        XCTAssertEqual(
            lines,
            [
                "auditd_audit_phase_seconds_total{phase=\"receive\"} 0.0025", "auditd_audit_phase_seconds_total{phase=\"queue\"} 0",
                "auditd_audit_phase_seconds_total{phase=\"parse\"} 0.1", "auditd_audit_phase_seconds_total{phase=\"image\"} 0",
                "auditd_audit_phase_seconds_total{phase=\"ocr\"} 0", "auditd_audit_phase_seconds_total{phase=\"rules\"} 0.01225",
                "auditd_audit_phase_seconds_total{phase=\"findings\"} 0.0005", "auditd_audit_phase_seconds_total{phase=\"render\"} 0",
                "auditd_audit_phase_seconds_total{phase=\"journal\"} 0.0025",
            ], text)
        XCTAssertTrue(text.contains("# TYPE auditd_audit_phase_seconds_total counter\n"))
        XCTAssertEqual(first.headerValue, "receive;dur=2.5, parse;dur=40, journal;dur=2.5")
    }

    /// `auditd_app_findings`: per app, the latest build's findings by severity, summed over
    /// the last audit of each of its screens; an earlier build arriving late changes nothing.
    func testEachAppsLatestBuildIsCountedScreenByScreen() {
        let metrics = Metrics()
        func audit(_ app: String, _ build: String, _ screen: String, errors: Int, warnings: Int = 0) {
            var counts: [String: Int] = [:]
            if errors > 0 { counts["label.missing|error"] = errors }
            if warnings > 0 { counts["target-size|warning"] = warnings }
            metrics.auditRecorded(app: app, build: build, screen: screen, findingCounts: counts)
        }
        audit("com.shop", "100", "Cart", errors: 5)
        audit("com.shop", "100", "Home", errors: 1, warnings: 2)
        audit("com.shop", "100", "Cart", errors: 3)  // the screen audited again: its last audit counts
        audit("com.news", "7", "Feed", errors: 0, warnings: 4)
        var text = metrics.render(queueDepth: 0, inFlight: 0, workers: 2, journal: nil, ruleSets: 4, uptime: 1)
        XCTAssertTrue(text.contains(#"auditd_app_findings{app="com.shop",build="100",severity="error"} 4"#), text)
        XCTAssertTrue(text.contains(#"auditd_app_findings{app="com.shop",build="100",severity="warning"} 2"#), text)
        XCTAssertTrue(text.contains(#"auditd_app_screens{app="com.shop",build="100"} 2"#), text)
        XCTAssertTrue(text.contains(#"auditd_app_findings{app="com.news",build="7",severity="warning"} 4"#), text)
        // A new build starts from its own screens; the old build arriving late is ignored.
        audit("com.shop", "101", "Cart", errors: 1)
        audit("com.shop", "100", "Home", errors: 9)
        text = metrics.render(queueDepth: 0, inFlight: 0, workers: 2, journal: nil, ruleSets: 4, uptime: 1)
        XCTAssertTrue(text.contains(#"auditd_app_findings{app="com.shop",build="101",severity="error"} 1"#), text)
        XCTAssertFalse(text.contains(#"build="100""#), text)
        XCTAssertTrue(text.contains(#"auditd_app_screens{app="com.shop",build="101"} 1"#), text)
        // Bounded: apps past the limit are counted, not labelled.
        for index in 0..<(LatestBuilds.maxApps + 5) { audit("app\(index)", "1", "S", errors: 1) }
        text = metrics.render(queueDepth: 0, inFlight: 0, workers: 2, journal: nil, ruleSets: 4, uptime: 1)
        XCTAssertEqual(text.components(separatedBy: "auditd_app_screens{").count - 1, LatestBuilds.maxApps)
        XCTAssertTrue(text.contains("auditd_app_audits_left_out_total 7\n"), text)
    }
}

final class LoggerTests: XCTestCase {
    func testControlCharactersCannotStartALine() {
        let logger = Logger(level: .debug, underSystemd: true)
        let line = logger.format(.warning, "rule set\nforged", ["file": "a\nb.json", "reason": "bad \u{1B}[31mred"])
        XCTAssertEqual(line.filter { $0 == "\n" }.count, 1, line)
        XCTAssertTrue(line.hasSuffix("\n"))
        XCTAssertTrue(line.hasPrefix("<4>warning rule set\\nforged"), line)
        XCTAssertTrue(line.contains(#"file=a\nb.json"#), line)
        XCTAssertFalse(line.contains("\u{1B}"), line)
    }
}
