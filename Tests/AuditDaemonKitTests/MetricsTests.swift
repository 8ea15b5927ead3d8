import AuditCore
@testable import AuditDaemonKit
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
        let metrics = Metrics()
        var first = ServerTiming()
        first.add(ServerTiming.receive, from: 1_000_000, to: 3_500_000)
        first.add(ServerTiming.parse, milliseconds: 40)
        first.add(ServerTiming.journal, milliseconds: 2.5)
        var second = ServerTiming()
        second.add(ServerTiming.parse, milliseconds: 60)
        second.add(ServerTiming.rules, milliseconds: 12.25)
        metrics.auditPhases(first)
        metrics.auditPhases(second)
        let text = metrics.render(queueDepth: 0, inFlight: 0, workers: 2, journal: nil, ruleSets: 4, uptime: 1)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("auditd_audit_phase_seconds_total{") }
        XCTAssertEqual(
            lines,
            [
                "auditd_audit_phase_seconds_total{phase=\"receive\"} 0.0025", "auditd_audit_phase_seconds_total{phase=\"queue\"} 0",
                "auditd_audit_phase_seconds_total{phase=\"parse\"} 0.1", "auditd_audit_phase_seconds_total{phase=\"image\"} 0",
                "auditd_audit_phase_seconds_total{phase=\"rules\"} 0.01225",
                "auditd_audit_phase_seconds_total{phase=\"render\"} 0", "auditd_audit_phase_seconds_total{phase=\"journal\"} 0.0025",
            ], text)
        XCTAssertTrue(text.contains("# TYPE auditd_audit_phase_seconds_total counter\n"))
        XCTAssertEqual(first.headerValue, "receive;dur=2.5, parse;dur=40, journal;dur=2.5")
    }
}

/// The log is one event a line whatever a client sends (issue 27: newlines were raw).
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
