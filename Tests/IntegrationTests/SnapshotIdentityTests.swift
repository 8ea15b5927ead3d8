import AuditClient
import Foundation
import XCTest

/// Every capture says what it is (issue 30): app, build and screen from the request — the
/// query, a form's fields, auditctl's options — over what the snapshot says, into the
/// report and the journal.
final class SnapshotIdentityTests: XCTestCase {
    func snapshotOf(_ response: DaemonHarness.Response) -> [String: Any] {
        ((response.json as? [String: Any])?["snapshot"] as? [String: Any]) ?? [:]
    }

    func testTheRequestSaysWhichAppBuildAndScreen() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let dump = DaemonHarness.example("android-login.xml")
        let named = try daemon.post(dump, query: "?app=com.example.bank&build=1843&screen=Login")
        XCTAssertEqual(named.status, 200, named.text)
        let snapshot = snapshotOf(named)
        XCTAssertEqual(snapshot["app"] as? String, "com.example.bank")
        XCTAssertEqual(snapshot["build"] as? String, "1843")
        XCTAssertEqual(snapshot["screen"] as? String, "Login")
        let records = daemon.journalRecords()
        XCTAssertTrue(records.filter { $0["type"] as? String == "finding" }.allSatisfy { $0["build"] as? String == "1843" && $0["screen"] as? String == "Login" })
        // The snapshot's own screen stays when only a default is given; the request's wins over it.
        let native = DaemonHarness.example("checkout.xml")
        XCTAssertEqual(snapshotOf(try daemon.post(native, query: "?default-screen=checkout"))["screen"] as? String, "Checkout")
        XCTAssertEqual(snapshotOf(try daemon.post(native, query: "?screen=Basket"))["screen"] as? String, "Basket")
        XCTAssertEqual(snapshotOf(try daemon.post(dump, query: "?default-screen=android-login"))["screen"] as? String, "android-login")
        // A form's text fields say it too.
        let form = MultipartBody(parts: [
            .init(name: "snapshot", filename: "a.xml", contentType: "application/xml", bytes: dump),
            .init(name: "build", filename: "build.txt", contentType: "text/plain", bytes: Array("1844".utf8)),
        ])
        let posted = try daemon.request(
            "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Type: \(form.contentType)\r\nContent-Length: \(form.bytes.count)\r\n\r\n", body: form.bytes)
        XCTAssertEqual(snapshotOf(posted)["build"] as? String, "1844", posted.text)
        // Names, not documents: control characters and long values are refused.
        let bad = try daemon.post(dump, query: "?build=" + String(repeating: "x", count: 300))
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.text.contains("bad-identity"), bad.text)
        XCTAssertEqual(try daemon.post(dump, query: "?screen=a%0Ab").status, 400)
    }

    func testAuditctlNamesTheBuildAndEachFilesScreen() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let android = DaemonHarness.examples.appendingPathComponent("android-login.xml").path
        let run = try daemon.auditctl([
            "audit", "--format", "json", "--fail-on", "never", "--build", "1843", android, DaemonHarness.examples.appendingPathComponent("checkout.xml").path,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let snapshots = reports.compactMap { $0["snapshot"] as? [String: Any] }
        XCTAssertEqual(snapshots.map { $0["build"] as? String }, ["1843", "1843"])
        XCTAssertEqual(snapshots.map { $0["screen"] as? String }, ["android-login", "Checkout"], "the file's base name only where the snapshot names no screen")
    }
}

/// Baselines find a screen again by what it is, not by the path its file was given by, and
/// say so when nothing of the run is in them (issue 30).
final class BaselineIdentityTests: XCTestCase {
    func testTheSameScreensByAnotherPathAreUnchangedAndNothingMatchedIsSaid() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let baseline = daemon.directory.appendingPathComponent("baseline.json").path
        let relative = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", "--output", baseline, "./Examples"], directory: DaemonHarness.packageRoot)
        XCTAssertEqual(relative.status, 0, relative.stderr)
        // The same files by absolute path: every finding unchanged, none new, none fixed.
        let again = try daemon.auditctl(["audit", "--format", "jsonl", "--baseline", baseline, DaemonHarness.examples.path])
        XCTAssertFalse(again.stderr.contains("no snapshot of this run is in the baseline"), again.stderr)
        let states = again.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.compactMap {
            $0["baselineState"] as? String
        }
        XCTAssertFalse(states.isEmpty)
        XCTAssertTrue(states.allSatisfy { $0 == "unchanged" }, "\(Set(states))")
        XCTAssertEqual(again.status, 0, "only new findings fail")
        // Another app's screens: nothing matched, and auditctl says so.
        let other = try daemon.auditctl([
            "audit", "--format", "jsonl", "--baseline", baseline, "--app", "com.other", DaemonHarness.examples.appendingPathComponent("android-login.xml").path,
        ])
        XCTAssertTrue(other.stderr.contains("no snapshot of this run is in the baseline"), other.stderr)
    }
}
