import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Trends from the journal (docs/trends.md), against the real daemon: a scripted history of
/// builds, `auditctl trend` and `--since-build`, and the index beside the journal rebuilt
/// after deletion, damage and a crash.
final class TrendTests: XCTestCase {
    /// Checkout with its close button labelled (one label.missing fixed).
    static let checkoutFixed = String(decoding: DaemonHarness.example("checkout.xml"), as: UTF8.self)
        .replacingOccurrences(of: #"id="close" role="button""#, with: #"id="close" role="button" label="Close""#)

    /// Writes the files of a build into `directory`/`build` and audits them as that build.
    func audit(_ daemon: DaemonHarness, build: String, _ files: [String: String], arguments: [String] = ["--fail-on", "never"]) throws
        -> DaemonHarness.Run
    {
        let folder = daemon.directory.appendingPathComponent("b\(build)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        return try daemon.auditctl(["audit", "--app", "shop", "--build", build] + arguments + paths)
    }

    static var checkout: String { String(decoding: DaemonHarness.example("checkout.xml"), as: UTF8.self) }
    static var mailbox: String { String(decoding: DaemonHarness.example("mailbox.xml"), as: UTF8.self) }
    static var settings: String { String(decoding: DaemonHarness.example("settings.xml"), as: UTF8.self) }

    /// Builds 1–4: first audits; a fix with a screen left out; the fix undone (regressed)
    /// from a reformatted file given by another path, the screen back; a screen added.
    func script(_ daemon: DaemonHarness) throws {
        XCTAssertEqual(try audit(daemon, build: "1", ["checkout.xml": Self.checkout, "mailbox.xml": Self.mailbox]).status, 0)
        XCTAssertEqual(try audit(daemon, build: "2", ["checkout.xml": Self.checkoutFixed]).status, 0)
        // Reformatted: every element on lines of its own, indented otherwise.
        let reformatted = Self.checkout.replacingOccurrences(of: "\n    <", with: "\n\n        <")
        let relative = try daemon.auditctl(
            ["audit", "--app", "shop", "--build", "3", "--fail-on", "never", "--screen", "Checkout", "-"], stdin: Array(reformatted.utf8))
        XCTAssertEqual(relative.status, 0, relative.stderr)
        XCTAssertEqual(try audit(daemon, build: "3", ["mailbox.xml": Self.mailbox]).status, 0)
        XCTAssertEqual(try audit(daemon, build: "4", ["checkout.xml": Self.checkout, "mailbox.xml": Self.mailbox, "settings.xml": Self.settings]).status, 0)
    }

    func trend(_ daemon: DaemonHarness, _ query: String = "app=shop") throws -> [String: Any] {
        let response = try daemon.request("GET /v1/trends?\(query) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 200, response.text)
        return try XCTUnwrap(response.json as? [String: Any])
    }

    func classes(_ build: [String: Any]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for kind in ["new", "fixed", "persistent", "regressed", "first"] { counts[kind] = build[kind] as? Int }
        return counts
    }

    func testAScriptedHistoryIsClassifiedBuildByBuild() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try script(daemon)
        let answer = try trend(daemon)
        let builds = try XCTUnwrap(answer["builds"] as? [[String: Any]])
        XCTAssertEqual(builds.map { $0["build"] as? String }, ["1", "2", "3", "4"])
        let checkoutFindings = 14, mailboxFindings = 8
        XCTAssertEqual(classes(builds[0]), ["new": 0, "fixed": 0, "persistent": 0, "regressed": 0, "first": checkoutFindings + mailboxFindings])
        // The close button labelled: one fixed; Inbox left out is not audited, not fixed.
        XCTAssertEqual(classes(builds[1]), ["new": 0, "fixed": 1, "persistent": checkoutFindings - 1, "regressed": 0, "first": 0])
        XCTAssertEqual(builds[1]["not-audited"] as? [String], ["Inbox"])
        XCTAssertEqual(builds[1]["transcript-changed"] as? [String], ["Checkout"])
        // The label gone again (regressed), from a reformatted file on standard input; Inbox
        // back and unchanged since build 1.
        XCTAssertEqual(classes(builds[2]), ["new": 0, "fixed": 0, "persistent": checkoutFindings - 1 + mailboxFindings, "regressed": 1, "first": 0])
        XCTAssertEqual(builds[2]["not-audited"] as? [String], [])
        // A screen added: its findings are its first, not new.
        let settingsFirst = try XCTUnwrap(builds[3]["first"] as? Int)
        XCTAssertGreaterThan(settingsFirst, 0)
        XCTAssertEqual(classes(builds[3]), ["new": 0, "fixed": 0, "persistent": checkoutFindings + mailboxFindings, "regressed": 0, "first": settingsFirst])
        let severities = try XCTUnwrap(builds[2]["by-severity"] as? [String: [String: Int]])
        XCTAssertEqual(severities["error"]?["regressed"], 1)

        // One build in detail, and one screen over the builds.
        let detailed = try XCTUnwrap((try trend(daemon, "app=shop&build=3")["builds"] as? [[String: Any]])?.first)
        let listed = try XCTUnwrap(detailed["findings"] as? [[String: Any]])
        XCTAssertEqual(listed.filter { $0["class"] as? String == "regressed" }.map { $0["rule"] as? String }, ["label.missing"])
        XCTAssertEqual(listed.count, checkoutFindings + mailboxFindings)
        // What VoiceOver says on Checkout changed with the label: the diff of the transcripts.
        let second = try XCTUnwrap((try trend(daemon, "app=shop&build=2")["builds"] as? [[String: Any]])?.first)
        let diff = try XCTUnwrap((second["transcript-diff"] as? [[String: Any]])?.first)
        XCTAssertEqual(diff["screen"] as? String, "Checkout")
        XCTAssertEqual(diff["removed"] as? [String], ["icon_close, button"])
        XCTAssertEqual(diff["added"] as? [String], ["Close, button"])
        let detail = try daemon.auditctl(["trend", "--app", "shop", "--build", "2"])
        XCTAssertTrue(detail.stdout.contains("what the screen reader says on Checkout changed:\n  - icon_close, button\n  + Close, button\n"), detail.stdout)
        let inbox = try XCTUnwrap(try trend(daemon, "app=shop&screen=Inbox")["builds"] as? [[String: Any]])
        XCTAssertEqual(inbox.map { $0["screens"] as? Int }, [1, 0, 1, 1])

        // auditctl trend prints the table; unknown apps and builds are errors with a hint.
        let table = try daemon.auditctl(["trend", "--app", "shop"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("shop — 4 builds"), table.stdout)
        // Per build: when it was first audited, its findings, and each class split by severity.
        XCTAssertNotNil(
            table.stdout.range(of: #"\n2 +\d{4}-\d\d-\d\d \d\d:\d\d +1 +13 +0 +0 +1 \(1E\) +13 \(7E 6W\) +0  Inbox +Checkout\n"#, options: .regularExpression),
            table.stdout)
        XCTAssertNotNil(table.stdout.range(of: #"\ntotal +0 +1 +1\n"#, options: .regularExpression), table.stdout)
        // The latest build alone, and every app with its latest build.
        let latest = try daemon.auditctl(["trend", "--app", "shop", "--build", "latest", "--format", "json"])
        XCTAssertEqual(latest.status, 0, latest.stderr)
        let latestBuilds = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(latest.stdout.utf8)) as? [String: Any])?["builds"] as? [[String: Any]])
        XCTAssertEqual(latestBuilds.map { $0["build"] as? String }, ["4"])
        XCTAssertEqual(latestBuilds.first?["first"] as? Int, 11)
        let apps = try daemon.auditctl(["trend"])
        XCTAssertEqual(apps.status, 0, apps.stderr)
        XCTAssertNotNil(apps.stdout.range(of: #"\nshop +4 +\d{4}-\d\d-\d\d \d\d:\d\d +3 +33 +0 +0 +0 +22 \(10E 12W\) +11 \(7E 4W\)\n"#, options: .regularExpression), apps.stdout)
        let unknown = try daemon.auditctl(["trend", "--app", "nope"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no build of app \"nope\""), unknown.stderr)
        XCTAssertEqual(try daemon.request("GET /v1/trends?app=shop&build=9 HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
        let everyApp = try daemon.request("GET /v1/trends HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(everyApp.status, 200)
        XCTAssertEqual(((everyApp.json as? [String: Any])?["apps"] as? [[String: Any]])?.map { $0["app"] as? String }, ["shop"])
    }

    /// The history is a library (issue 56): `auditctl trend --journal FILE` answers from the
    /// journal alone, with no daemon running, exactly what the daemon answers — every app,
    /// the app's builds, one build in detail, the latest, one screen.
    func testTheJournalAloneGivesTheDaemonsAnswers() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try script(daemon)
        let queries: [(query: String, arguments: [String])] = [
            ("", []), ("app=shop", ["--app", "shop"]), ("app=shop&build=2", ["--app", "shop", "--build", "2"]),
            ("app=shop&build=latest", ["--app", "shop", "--build", "latest"]), ("app=shop&screen=Inbox", ["--app", "shop", "--screen", "Inbox"]),
        ]
        var answers: [String: Any] = [:]
        for (query, _) in queries {
            let response = try daemon.request("GET /v1/trends\(query.isEmpty ? "" : "?" + query) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(response.status, 200, response.text)
            answers[query] = response.json
        }
        let table = try daemon.auditctl(["trend", "--app", "shop"]).stdout
        XCTAssertEqual(daemon.stop(), 0)
        for (query, arguments) in queries {
            let run = try daemon.auditctl(["trend", "--journal", daemon.journal, "--format", "json"] + arguments)
            XCTAssertEqual(run.status, 0, run.stderr)
            let fromJournal = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
            XCTAssertEqual(fromJournal as? NSDictionary, answers[query] as? NSDictionary, "\(query): the journal's answer differs from the daemon's")
        }
        XCTAssertEqual(try daemon.auditctl(["trend", "--journal", daemon.journal, "--app", "shop"]).stdout, table)
        // What it cannot answer it says, with the file and a way on.
        let unknown = try daemon.auditctl(["trend", "--journal", daemon.journal, "--app", "nope"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no build of app \"nope\" has been audited in \(daemon.journal)"), unknown.stderr)
        let missing = try daemon.auditctl(["trend", "--journal", daemon.journal + ".nothing", "--app", "shop"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("cannot read \(daemon.journal).nothing: No such file or directory"), missing.stderr)
    }

    func testSinceBuildFailsOnlyOnNewAndRegressedFindings() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        XCTAssertEqual(try audit(daemon, build: "1", ["checkout.xml": Self.checkout]).status, 0)
        XCTAssertEqual(try audit(daemon, build: "2", ["checkout.xml": Self.checkoutFixed]).status, 0)
        // Nothing new since build 2: passes, though errors remain.
        let same = try audit(daemon, build: "3", ["checkout.xml": Self.checkoutFixed], arguments: ["--since-build", "2", "--fail-on", "error"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        // The fix undone: regressed since build 2, and fails.
        let back = try audit(daemon, build: "4", ["checkout.xml": Self.checkout], arguments: ["--since-build", "latest", "--fail-on", "error"])
        XCTAssertEqual(back.status, 1, back.stdout + back.stderr)
        XCTAssertTrue(back.stdout.contains("[label.missing]") && back.stdout.contains("[regressed]"), back.stdout)
        XCTAssertTrue(back.stderr.contains("comparing with build 3"), back.stderr)
        // The HTML report names the build it compares with, in the verdict and the deltas.
        let page = try audit(daemon, build: "4", ["checkout.xml": Self.checkout], arguments: ["--since-build", "3", "--fail-on", "error", "--format", "html"])
        XCTAssertEqual(page.status, 1, page.stderr)
        XCTAssertTrue(page.stdout.contains("new or regressed finding since build 3 at error or above"), page.stdout.prefix(3000).description)
        XCTAssertTrue(page.stdout.contains("<strong>Against build 3:</strong>"), page.stdout.prefix(3000).description)
        XCTAssertTrue(page.stdout.contains("1 regressed"), page.stdout.prefix(3000).description)
        XCTAssertTrue(page.stdout.contains("since build 3: "), page.stdout.prefix(3000).description)
        XCTAssertFalse(page.stdout.contains("the baseline"), "the build is named everywhere")
        // Prometheus: what the latest build changed, once the index has it (a query brings it up).
        _ = try trend(daemon)
        let metrics = try daemon.request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").text
        XCTAssertTrue(metrics.contains(#"auditd_app_changes{app="shop",build="4",severity="error",change="regressed"} 1"#), metrics)
        XCTAssertTrue(metrics.contains(#"auditd_app_changes{app="shop",build="4",severity="error",change="new"} 0"#), metrics)
        // Against build 1, the same file has nothing new.
        let old = try audit(daemon, build: "5", ["checkout.xml": Self.checkout], arguments: ["--since-build", "1", "--fail-on", "error"])
        XCTAssertEqual(old.status, 0, old.stdout + old.stderr)
        let noApp = try daemon.auditctl(["audit", "--since-build", "1", "Examples/checkout.xml"], directory: DaemonHarness.packageRoot)
        XCTAssertEqual(noApp.status, 2)
        XCTAssertTrue(noApp.stderr.contains("--app"), noApp.stderr)
    }

    /// Nothing lost downstream without a word: records rotated away before they were shipped
    /// stop the shipper loudly (the daemon answers 410 with the range lost), and a journal
    /// begun again at seq 1 is shipped from its beginning, not skipped as already shipped.
    func testTheShipperStopsOnAGapAndFollowsANewJournal() throws {
        let daemon = try DaemonHarness()
        let clickhouse = try ClickHouse(in: daemon)
        let deploy = DaemonHarness.packageRoot.appendingPathComponent("Deploy/clickhouse")
        XCTAssertEqual(try clickhouse.query(daemon, try String(contentsOf: deploy.appendingPathComponent("schema.sql"), encoding: .utf8)).status, 0)
        func ship() throws -> DaemonHarness.Run {
            try daemon.run(deploy.appendingPathComponent("ship.sh").path, [daemon.socket, "runner", "--port", String(clickhouse.port)])
        }
        func shipped() throws -> Int {
            Int(try clickhouse.query(daemon, "SELECT count() FROM auditd.journal FINAL").stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        // A small journal, one rotated file kept.
        try daemon.start(["--journal-max-bytes", "20000", "--journal-keep", "1"])
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?app=shop&build=1").status, 200)
        let first = try ship()
        XCTAssertEqual(first.status, 0, first.stderr)
        let held = try shipped()
        XCTAssertEqual(held, daemon.journalRecords().count)
        // Enough audits that rotation takes records the shipper never saw.
        for build in 2...8 {
            XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?app=shop&build=\(build)").status, 200)
        }
        let gone = try daemon.request("GET /v1/findings?since=\(held) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(gone.status, 410, gone.text)
        XCTAssertTrue(gone.text.contains("records-gone") && gone.text.contains("are no longer in the journal"), gone.text)
        XCTAssertNotNil(gone.headers["journal-first-seq"] ?? gone.headers["Journal-First-Seq"], "\(gone.headers)")
        let loud = try ship()
        XCTAssertEqual(loud.status, 1, loud.stderr)
        XCTAssertTrue(loud.stderr.contains("records-gone"), loud.stderr)
        XCTAssertEqual(try shipped(), held, "nothing shipped past the gap")
        // Read from the file, the same gap is said the same way.
        let exported = try daemon.auditctl(["export", "--journal", daemon.journal, "--since", String(held)])
        XCTAssertEqual(exported.status, 1, exported.stderr)
        XCTAssertTrue(exported.stderr.contains("records-gone"), exported.stderr)
        XCTAssertEqual(try daemon.auditctl(["export", "--journal", daemon.journal, "--journal-id"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines).count, 32)

        // The journal lost: a new one begins at seq 1 under another name, shipped whole.
        XCTAssertEqual(daemon.stop(), 0)
        let directory = (daemon.journal as NSString).deletingLastPathComponent
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file.hasPrefix("findings.jsonl") && !file.hasSuffix(".id") {
            try FileManager.default.removeItem(atPath: directory + "/" + file)
        }
        try daemon.start()
        XCTAssertEqual(try daemon.post(DaemonHarness.example("mailbox.xml"), query: "?app=notes&build=1").status, 200)
        let records = daemon.journalRecords()
        XCTAssertEqual(records.first?["seq"] as? Int, 1)
        let again = try ship()
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try shipped(), held + records.count, "the new journal's records, from its first")
        let journals = try clickhouse.query(daemon, "SELECT uniqExact(journal) FROM auditd.journal").stdout
        XCTAssertEqual(journals.trimmingCharacters(in: .whitespacesAndNewlines), "2")
    }

    /// A finding-heavy audit (tens of thousands of findings, megabytes of journal) is
    /// indexed a part per batch, each written once: its packed row was rewritten whole for
    /// every megabyte read (quadratic; a 150 MB audit held trend queries for 25 s and left
    /// a 78 MB write-ahead log). The log stays near SQLite's 4 MB checkpoint.
    func testAFindingHeavyAuditIsIndexedInPartsWrittenOnce() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let rows = (0..<6000).map { row in
            ##"<element role="cell" frame="0,\##(row * 50),390,48"><element role="button" image="icon_\##(row)" frame="340,\##(row * 50 + 2),20,20"/><element role="button" image="more_\##(row)" frame="300,\##(row * 50 + 2),20,20"/></element>"##
        }.joined()
        let xml =
            ##"<snapshot version="1" platform="ios" app="heavy" build="1" screen="List" width="390" height="844"><element role="window" frame="0,0,390,300000">"## + rows
            + "</element></snapshot>"
        let answer = try daemon.post(Array(xml.utf8))
        XCTAssertEqual(answer.status, 200)
        let findings = try XCTUnwrap(((answer.json as? [String: Any])?["findings"] as? [Any])?.count)
        XCTAssertGreaterThan(findings, 20_000)
        let journalBytes = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: daemon.journal)[.size] as? Int)
        XCTAssertGreaterThan(journalBytes, 8 << 20, "several batches of the index's reading")
        let builds = try XCTUnwrap(try trend(daemon, "app=heavy")["builds"] as? [[String: Any]])
        XCTAssertEqual(builds.first?["first"] as? Int, findings, "every finding indexed")
        let wal = (try? FileManager.default.attributesOfItem(atPath: daemon.journal + ".index.sqlite-wal")[.size] as? Int) ?? 0
        XCTAssertLessThanOrEqual(wal, 6 << 20, "the index's write-ahead log")
    }

    /// Every per-app metric family follows one set of apps, at most 64: 70 apps audited give
    /// 64 app labels in auditd_app_findings, auditd_app_screens and auditd_app_changes alike.
    func testPerAppMetricsFollowOneSetOfApps() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        // Apps the trend index learns of first, in another order than the audits'.
        for app in (0..<70).reversed() {
            XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?app=app-\(app)&build=1").status, 200)
        }
        for app in 0..<70 {
            XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?app=app-\(app)&build=2").status, 200)
        }
        _ = try trend(daemon, "app=app-0")
        // The other apps' changes are recomputed after the query's answer: polled.
        var metrics = ""
        func apps(_ family: String) -> Set<String> {
            Set(metrics.split(separator: "\n").filter { $0.hasPrefix(family + "{") }.compactMap { $0.firstMatch(of: /app="([^"]*)"/).map { String($0.1) } })
        }
        let deadline = Date().addingTimeInterval(20)
        repeat {
            metrics = try daemon.request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").text
            if apps("auditd_app_changes").count >= 64 { break }
            usleep(50_000)
        } while Date() < deadline
        let findings = apps("auditd_app_findings")
        XCTAssertEqual(findings.count, 64, metrics)
        XCTAssertEqual(apps("auditd_app_screens"), findings)
        XCTAssertEqual(apps("auditd_app_changes"), findings)
    }

    /// logrotate's `copytruncate` on `findings.jsonl*` truncates the index's files under the
    /// running daemon: the index maps no `-shm` file (which truncated, killed the daemon
    /// with SIGBUS), and what was truncated is rebuilt from the journal.
    func testTruncatingTheIndexFilesUnderTheDaemonKillsNothing() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try script(daemon)
        let before = try trend(daemon)
        let directory = (daemon.journal as NSString).deletingLastPathComponent
        let name = (daemon.journal as NSString).lastPathComponent
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(name + ".index") }
        XCTAssertFalse(files.contains { $0.hasSuffix("-shm") }, "no mapped -shm file beside the index: \(files)")
        for file in files {
            let path = directory + "/" + file
            XCTAssertEqual(truncate(path, 0), 0, path)
        }
        // Still serving: the next query rebuilds what was lost from the journal.
        XCTAssertEqual(NSDictionary(dictionary: try trend(daemon)), NSDictionary(dictionary: before))
        XCTAssertEqual(try audit(daemon, build: "5", ["checkout.xml": Self.checkout]).status, 0)
        XCTAssertEqual((try trend(daemon)["builds"] as? [[String: Any]])?.count, 5)
        XCTAssertTrue(daemon.process?.isRunning ?? false, daemon.log)
    }

    func testTheIndexIsRebuiltAfterDeletionDamageAndACrash() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try script(daemon)
        let expected = try trend(daemon)
        XCTAssertEqual(daemon.stop(), 0)
        let index = daemon.journal + ".index.sqlite"
        XCTAssertTrue(FileManager.default.fileExists(atPath: index))

        // Deleted: rebuilt from the journal.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
        try daemon.start()
        XCTAssertEqual(NSDictionary(dictionary: try trend(daemon)), NSDictionary(dictionary: expected))
        XCTAssertEqual(daemon.stop(), 0)

        // Damaged (its header overwritten): rebuilt, and the log says so.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: index))
        handle.write(Data(repeating: 0x5A, count: 512))
        try handle.close()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index + suffix) }
        try daemon.start()
        XCTAssertEqual(NSDictionary(dictionary: try trend(daemon)), NSDictionary(dictionary: expected))
        XCTAssertTrue(daemon.log.contains("trend index damaged"), daemon.log)

        // Killed while audits arrive: the next start catches up with what the journal kept.
        let stop = Flag()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            while !stop.isSet { _ = try? daemon.post(DaemonHarness.example("mailbox.xml"), query: "?app=other&build=7") }
        }
        XCTAssertTrue(daemon.waitUntil(seconds: 10) { (daemon.metric(#"auditd_audits_total{status="200"}"#) ?? 0) >= 5 })
        _ = daemon.stop(signal: SIGKILL)
        stop.set()
        group.wait()
        try daemon.start()
        XCTAssertEqual(NSDictionary(dictionary: try trend(daemon)), NSDictionary(dictionary: expected), "the shop's history is intact")
        let audited = daemon.journalRecords().filter { $0["type"] as? String == "audit" && $0["app"] as? String == "other" }.count
        let other = try XCTUnwrap((try trend(daemon, "app=other")["builds"] as? [[String: Any]])?.first)
        XCTAssertEqual(other["screens"] as? Int, audited > 0 ? 1 : 0)
        // And a journal replaced by a shorter one: the index, ahead of it, is rebuilt.
        XCTAssertEqual(daemon.stop(), 0)
        try FileManager.default.removeItem(atPath: daemon.journal)
        try daemon.start()
        XCTAssertEqual(try daemon.request("GET /v1/trends?app=shop HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
        XCTAssertTrue(daemon.log.contains("ahead of the journal"), daemon.log)
    }

    func testADaemonWithoutAnIndexSaysSo() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--trend-index", "none"])
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?build=1").status, 200)
        let answer = try daemon.request("GET /v1/trends?app=com.example.shop HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(answer.status, 404)
        XCTAssertTrue(answer.text.contains("trends-disabled"), answer.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.journal + ".index.sqlite"))
    }

    func testTheAnswerDoesNotChangeWhenTheJournalGrowsAHundredfold() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try script(daemon)
        let expected = try trend(daemon)
        XCTAssertEqual(daemon.stop(), 0)
        // 100 times the journal's records, of other apps' builds, appended as the daemon
        // writes them (seq continuing).
        let lines = try String(contentsOfFile: daemon.journal, encoding: .utf8).split(separator: "\n")
        var seq = lines.count
        var grown = ""
        for copy in 0..<100 {
            for line in lines {
                seq += 1
                let renamed = line.replacingOccurrences(of: #""app":"shop""#, with: #""app":"fleet-\#(copy % 7)""#)
                    .replacingOccurrences(of: #""build":""#, with: #""build":"\#(copy)-"#)
                grown += renamed.replacingOccurrences(of: #"^\{"seq":[0-9]+,"#, with: #"{"seq":\#(seq),"#, options: .regularExpression) + "\n"
            }
        }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: daemon.journal))
        handle.seekToEndOfFile()
        handle.write(Data(grown.utf8))
        try handle.close()
        try daemon.start(["--journal-max-bytes", "1000000000"])
        XCTAssertEqual(NSDictionary(dictionary: try trend(daemon)), NSDictionary(dictionary: expected))
        let fleet = try XCTUnwrap(try trend(daemon, "app=fleet-3")["builds"] as? [[String: Any]])
        XCTAssertEqual(fleet.count, 4 * 14, "builds 3-1…3-4, 10-1… of the copies renamed fleet-3")
    }

    // MARK: A fleet's history in ClickHouse (Deploy/clickhouse, docs/DEPLOYMENT.md)

    /// A ClickHouse server of its own, in the harness's directory, on a port of its own,
    /// started by the script docs/DEPLOYMENT.md gives for trying it.
    final class ClickHouse {
        let directory: URL
        let port: Int
        var pidFile = ""

        init(in harness: DaemonHarness) throws {
            directory = harness.directory.appendingPathComponent("clickhouse")
            port = 20_000 + Int(getpid() % 20_000)
            pidFile = directory.appendingPathComponent("server.pid").path
            let script = DaemonHarness.packageRoot.appendingPathComponent("Deploy/clickhouse/local-server.sh").path
            let start = try harness.run(script, [directory.path, String(port)])
            XCTAssertEqual(start.status, 0, start.stderr)
            XCTAssertEqual(try query(harness, "SELECT 1").stdout, "1\n", "ClickHouse did not start on port \(port)")
        }

        deinit {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGKILL)
            }
        }

        func query(_ harness: DaemonHarness, _ sql: String, format: String? = nil) throws -> DaemonHarness.Run {
            try harness.run("clickhouse-client", ["--port", String(port), "--multiquery"] + (format.map { ["--format", $0] } ?? []), stdin: Array(sql.utf8))
        }
    }

    func testAFleetsJournalsInClickHouseGiveTheSameClasses() throws {
        let a = try DaemonHarness(), b = try DaemonHarness(), whole = try DaemonHarness()
        let clickhouse = try ClickHouse(in: a)
        let deploy = DaemonHarness.packageRoot.appendingPathComponent("Deploy/clickhouse")
        XCTAssertEqual(try clickhouse.query(a, try String(contentsOf: deploy.appendingPathComponent("schema.sql"), encoding: .utf8)).status, 0)
        // Runner A audits the shop's builds 1–4; runner B its build 5 (the label fixed again)
        // and another app. One daemon that saw everything gives the answer to compare with.
        for daemon in [a, b, whole] { try daemon.start() }
        try script(a)
        try script(whole)
        for daemon in [b, whole] {
            XCTAssertEqual(try audit(daemon, build: "5", ["checkout.xml": Self.checkoutFixed]).status, 0)
            XCTAssertEqual(
                try daemon.auditctl(["audit", "--app", "notes", "--build", "77", "--fail-on", "never", "Examples/settings.xml"], directory: DaemonHarness.packageRoot).status, 0)
        }
        // Runner A ships from its daemon; runner B, its daemon stopped, from its journal file
        // through the history library (`auditctl export`): the same records either way.
        XCTAssertEqual(b.stop(), 0)
        let shipper = ["AUDITCTL": b.binaries.appendingPathComponent("auditctl").path]
        for (daemon, source, host) in [(a, [a.socket], "runner-a"), (b, ["--journal", b.journal], "runner-b")] {
            let ship = try daemon.run(deploy.appendingPathComponent("ship.sh").path, source + [host, "--port", String(clickhouse.port)], environment: shipper)
            XCTAssertEqual(ship.status, 0, ship.stderr)
            XCTAssertTrue(ship.stderr.contains("records from \(host)"), ship.stderr)
            // Shipping again ships nothing twice.
            let again = try daemon.run(deploy.appendingPathComponent("ship.sh").path, source + [host, "--port", String(clickhouse.port)], environment: shipper)
            XCTAssertEqual(again.status, 0, again.stderr)
        }
        let fromFile = try b.auditctl(["export", "--journal", b.journal])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssertEqual(fromFile.stdout.split(separator: "\n").count, b.journalRecords().count, "every record, from the file alone")
        let shipped = try clickhouse.query(a, "SELECT count() FROM auditd.journal").stdout
        XCTAssertEqual(Int(shipped.trimmingCharacters(in: .whitespacesAndNewlines)), a.journalRecords().count + b.journalRecords().count)
        let sql = try String(contentsOf: deploy.appendingPathComponent("trends.sql"), encoding: .utf8)
        for app in ["shop", "notes"] {
            let run = try clickhouse.query(a, sql.replacingOccurrences(of: "{app}", with: "'\(app)'"), format: "JSONEachRow")
            XCTAssertEqual(run.status, 0, run.stderr)
            let rows = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            func number(_ value: Any?) -> Int? { (value as? Int) ?? (value as? String).flatMap { Int($0) } ?? (value as? NSNumber)?.intValue }
            let counted = ["screens", "new", "fixed", "persistent", "regressed", "first"]
            func names(_ value: Any?) -> String { ((value as? [String]) ?? []).joined(separator: ",") }
            let fleet = rows.map { row in
                [row["build"] as? String ?? "?"] + counted.map { String(number(row[$0]) ?? -1) } + [names(row["not-audited"])]
            }
            let local = try XCTUnwrap(try trend(whole, "app=\(app)")["builds"] as? [[String: Any]]).map { build in
                [build["build"] as? String ?? "?"] + counted.map { String(number(build[$0]) ?? -1) } + [names(build["not-audited"])]
            }
            XCTAssertEqual(fleet, local, "\(app): ClickHouse over two runners' journals, against one daemon that saw it all")
            // The same column names in the same order as auditctl trend --format json gives a build.
            let firstLine = try XCTUnwrap(run.stdout.split(separator: "\n").first.map(String.init), run.stdout)
            let columns = firstLine.matches(of: /"([a-z_-]+)":/).map { String($0.1) }
            XCTAssertEqual(columns, ["build", "first_audited", "screens", "new", "fixed", "persistent", "regressed", "first", "not-audited"], firstLine)
        }
    }
}
