import Foundation
import XCTest

/// CI outputs that agree with the exit status, against the real daemon: for every gate mode
/// — no baseline, `--baseline FILE`, `--since-build latest` (on the app's first build and on
/// a later one) — and every `--fail-on`, JUnit fails exactly the testcases whose findings
/// fail the gate, the text summary counts new, regressed and fixed, and auditctl exits 1
/// exactly when JUnit has a failure.
final class GateAgreementTests: XCTestCase {
    /// Checkout with its close button labelled (a label.missing fixed) and a share button
    /// without a label (new findings).
    static let next = String(decoding: DaemonHarness.example("checkout.xml"), as: UTF8.self)
        .replacingOccurrences(of: #"id="close" role="button""#, with: #"id="close" role="button" label="Close""#)
        .replacingOccurrences(
            of: #"<element id="items""#, with: #"<element id="share" role="button" image="icon_share" frame="300,50,44,44"/><element id="items""#)

    struct Finding {
        var severity: String
        var state: String?
        var defect: String
    }

    /// The run's findings as JSON Lines say them (severity, baseline state, defect).
    func findings(_ daemon: DaemonHarness, _ arguments: [String]) throws -> [Finding] {
        let run = try daemon.auditctl(["audit", "--format", "jsonl", "--fail-on", "never"] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["rule"] != nil else { return nil }
            return Finding(
                severity: object["severity"] as? String ?? "", state: object["baselineState"] as? String,
                defect: (object["defect"] as? String ?? "") + "|" + (object["severity"] as? String ?? ""))
        }
    }

    static let rank = ["notice": 0, "warning": 1, "error": 2]

    /// Checks one gate mode with every --fail-on.
    func check(_ daemon: DaemonHarness, _ mode: [String], file: String, baseline: Bool, name: String) throws {
        let all = try findings(daemon, mode + [file])
        XCTAssertFalse(all.isEmpty, name)
        for failOn in ["error", "warning", "notice", "never"] {
            let gated = all.filter { finding in
                guard let floor = Self.rank[failOn], (Self.rank[finding.severity] ?? -1) >= floor else { return false }
                return !baseline || finding.state == "new" || finding.state == "regressed"
            }
            let junit = try daemon.auditctl(["audit", "--format", "junit", "--fail-on", failOn] + mode + [file])
            let text = try daemon.auditctl(["audit", "--fail-on", failOn] + mode + [file])
            let label = "\(name), --fail-on \(failOn)"
            // A testcase per defect (and verdict): as many failures as failing defects.
            let failures = junit.stdout.components(separatedBy: "<failure ").count - 1
            XCTAssertEqual(failures, Set(gated.map(\.defect)).count, "\(label): \(junit.stdout)")
            XCTAssertEqual(junit.status, gated.isEmpty ? 0 : 1, label)
            XCTAssertEqual(text.status, junit.status, label)
            let suite = try XCTUnwrap(junit.stdout.firstMatch(of: /failures="(\d+)"/)?.1, junit.stdout)
            XCTAssertEqual(Int(suite), failures, label)
            if gated.isEmpty { XCTAssertFalse(junit.stdout.contains("<failure "), label) }
            // What does not fail is a skipped testcase that says why.
            if failOn == "never" { XCTAssertTrue(junit.stdout.contains(": --fail-on never, nothing fails"), label) }
            if baseline {
                let counts = (
                    new: all.filter { $0.state == "new" }.count, regressed: all.filter { $0.state == "regressed" }.count
                )
                XCTAssertTrue(text.stdout.contains("\(counts.new) new, \(counts.regressed) regressed, "), "\(label): \(text.stdout)")
                XCTAssertTrue(junit.stdout.contains("<property name=\"new\" value=\"\(counts.new)\"/>"), label)
            }
        }
    }

    func testJUnitTextAndExitAgreeInEveryGateMode() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let first = daemon.directory.appendingPathComponent("first")
        let second = daemon.directory.appendingPathComponent("second")
        for folder in [first, second] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let before = first.appendingPathComponent("checkout.xml").path
        let after = second.appendingPathComponent("checkout.xml").path
        try Data(DaemonHarness.example("checkout.xml")).write(to: URL(fileURLWithPath: before))
        try Self.next.write(toFile: after, atomically: true, encoding: .utf8)

        // No baseline: every finding at or above the gate fails.
        try check(daemon, [], file: before, baseline: false, name: "no baseline")

        // The app's first build, against "the latest": no earlier build, every finding is
        // new (as against an empty baseline), a note says so, and the gate decides.
        let firstRun = try daemon.auditctl(["audit", "--app", "shop", "--build", "1", "--since-build", "latest", "--fail-on", "never", before])
        XCTAssertEqual(firstRun.status, 0, firstRun.stderr)
        XCTAssertTrue(firstRun.stderr.contains("no earlier build of shop has been audited: every finding is new"), firstRun.stderr)
        try check(daemon, ["--app", "shop", "--build", "1", "--since-build", "latest"], file: before, baseline: true, name: "first build")
        let gated = try daemon.auditctl(["audit", "--app", "shop", "--build", "1", "--since-build", "latest", before])
        XCTAssertEqual(gated.status, 1, "errors are new on a first build: --fail-on error fails")

        // A saved baseline, and the next build against the latest from the trend index.
        let saved = daemon.directory.appendingPathComponent("baseline.json").path
        XCTAssertEqual(try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", "-o", saved, before]).status, 0)
        try check(daemon, ["--baseline", saved], file: after, baseline: true, name: "baseline")
        try check(daemon, ["--app", "shop", "--build", "2", "--since-build", "latest"], file: after, baseline: true, name: "since build 1")
        let text = try daemon.auditctl(["audit", "--baseline", saved, after])
        XCTAssertTrue(text.stdout.contains("against the baseline: "), text.stdout)
        XCTAssertTrue(text.stdout.contains(" 1 fixed"), text.stdout)
        // The fixed finding is listed in JUnit, passing.
        let junit = try daemon.auditctl(["audit", "--format", "junit", "--baseline", saved, after])
        XCTAssertTrue(junit.stdout.contains(#"<testcase name="label.missing: close (fixed)""#), junit.stdout)
        // Names are the rule and the element as a person names it, never a path.
        let names = junit.stdout.matches(of: /<testcase name="([^"]*)"/).map { String($0.1) }
        XCTAssertTrue(names.contains("label.missing: button “icon_share”"), "\(names)")
        XCTAssertFalse(names.contains { $0.contains("/snapshot/") }, "\(names)")
    }

    /// A baseline that cannot be used says why and how to make one.
    func testAnUnusableBaselineSaysWhyAndHowToMakeOne() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let file = DaemonHarness.examples.appendingPathComponent("checkout.xml").path
        let missing = daemon.directory.appendingPathComponent("last.json").path
        let notJSON = daemon.directory.appendingPathComponent("notes.txt").path
        let notReport = daemon.directory.appendingPathComponent("other.json").path
        try "not json".write(toFile: notJSON, atomically: true, encoding: .utf8)
        try #"{"hello": "world"}"#.write(toFile: notReport, atomically: true, encoding: .utf8)
        for (path, why) in [(missing, "does not exist"), (notJSON, "is not JSON"), (notReport, "not an auditctl report")] {
            let run = try daemon.auditctl(["audit", "--baseline", path, file])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains(why), run.stderr)
            XCTAssertTrue(run.stderr.contains("auditctl audit --format json -o \(path)"), run.stderr)
        }
    }
}
