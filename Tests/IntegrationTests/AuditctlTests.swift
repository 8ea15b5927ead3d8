import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `auditctl` as people and pipelines run it, against a real daemon: formats that validate,
/// exit codes, baselines, errors that say what to do.
final class AuditctlTests: XCTestCase {
    static let schemas = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/schemas")

    /// A capture format's limit is said once per run, with the snapshots it applies to, not
    /// once per screen (issue 55: 301 of 329 incomplete lines repeated one sentence); JSON
    /// keeps it per snapshot; `-q` leaves incomplete lines out.
    func testACaptureFormatsLimitIsSaidOncePerRun() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let corpus = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/corpus/android")
        let files = ["Allrounder687__IT_PROTECTS__window_dump.xml", "BRVee__testMe__window_dump.xml", "Bioto__tron-ai__page_source.xml"]
            .map { corpus.appendingPathComponent($0).path }
        let text = try daemon.auditctl(["audit", "--fail-on", "never"] + files)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("[motion.autoplay]") }.count, 1, text.stdout)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("incomplete on 3 snapshots: [motion.autoplay] this capture (uiautomator) declares no animations") },
            text.stdout)
        XCTAssertTrue(
            lines.contains { $0.contains(" snapshots: [contrast.text] no colours in this dialect (uiautomator); N text elements not judged") },
            text.stdout)
        // A notice says why it is one.
        XCTAssertTrue(
            lines.contains {
                $0.contains("notice: [screen-reader.role] Interactive group is not announced as a button or link — notice: TalkBack still says")
            }, text.stdout)
        // A small target under a clickable ancestor says which 2.5.8 exception its severity rests on.
        XCTAssertTrue(
            lines.contains { $0.contains("notice: [target-size]") && $0.contains("— notice: WCAG 2.5.8's equivalent exception: ") },
            text.stdout)
        let json = try daemon.auditctl(["audit", "--fail-on", "never", "--format", "json"] + files)
        XCTAssertEqual(json.stdout.components(separatedBy: "\"motion.autoplay\"").count - 1, 3, "kept per snapshot in JSON")
        // The HTML report says it once too, in its summary; each snapshot's list points there.
        let html = try daemon.auditctl(["audit", "--fail-on", "never", "--format", "html"] + files)
        XCTAssertEqual(html.stdout.components(separatedBy: "<code>motion.autoplay</code>").count - 1, 1, "said once in the HTML")
        XCTAssertTrue(html.stdout.contains("<h2 id=\"not-judged\">Not judged on several snapshots</h2>"))
        XCTAssertTrue(html.stdout.contains("<code>motion.autoplay</code> this capture (uiautomator) declares no animations: motion not judged — 3 snapshots ("), html.stdout)
        XCTAssertEqual(html.stdout.components(separatedBy: "of the capture format, said once for the run").count - 1, 3)
        let quiet = try daemon.auditctl(["audit", "--fail-on", "never", "-q"] + files)
        XCTAssertFalse(quiet.stdout.contains(": incomplete:") || quiet.stdout.contains("incomplete on"), quiet.stdout)
        // Progress a CI log can read (standard error is no terminal here): plain lines, the
        // last of them the whole run; none with -q.
        XCTAssertTrue(text.stderr.contains("auditctl: 3/3 snapshots audited\n"), text.stderr)
        XCTAssertFalse(text.stderr.contains("\r"), "no bar redrawn in place in a log")
        XCTAssertFalse(quiet.stderr.contains("snapshots audited"), quiet.stderr)
    }

    /// Flutter's semantics dumps through auditctl and the daemon: found in a directory by
    /// their `.semantics.txt` name, sent as text, audited and transcribed; findings point at
    /// the node's line and column.
    func testFlutterSemanticsDumpsAreAuditedThroughTheDaemon() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let folder = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/flutter").path
        let json = try daemon.auditctl(["audit", "--fail-on", "never", "--format", "json", folder])
        XCTAssertEqual(json.status, 0, json.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(reports.count, 4, json.stdout)
        XCTAssertTrue(reports.allSatisfy { ($0["snapshot"] as? [String: Any])?["dialect"] as? String == "flutter-semantics" })
        let text = try daemon.auditctl(["audit", "--fail-on", "error", folder + "/pr_164585_required_fields.semantics.txt"])
        XCTAssertEqual(text.status, 1, text.stdout)
        XCTAssertTrue(text.stdout.contains("pr_164585_required_fields.semantics.txt:16:10: error: [label.missing] text field has no accessible name"), text.stdout)
        let transcript = try daemon.auditctl(["transcript", folder + "/counter_ios_simulator.semantics.txt"])
        XCTAssertEqual(transcript.status, 0, transcript.stderr)
        XCTAssertTrue(transcript.stdout.contains("4. Increment, button"), transcript.stdout)
        // The dump does not say its platform: the caller does, and the platform's rule set
        // and reader follow; a capture that says its own is not overridden.
        let ios = try daemon.auditctl(["audit", "--platform", "ios", "--format", "json", "--fail-on", "never", folder + "/counter_ios_simulator.semantics.txt"])
        XCTAssertEqual(ios.status, 0, ios.stderr)
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(ios.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual((report["snapshot"] as? [String: Any])?["platform"] as? String, "ios")
        XCTAssertEqual(report["ruleset"] as? String, "ios-default")
        let talkback = try daemon.auditctl(["transcript", "--platform", "android", folder + "/counter_ios_simulator.semantics.txt"])
        XCTAssertTrue(talkback.stdout.contains("(talkback,"), talkback.stdout)
        let android = DaemonHarness.examples.appendingPathComponent("android-login.xml").path
        let conflict = try daemon.auditctl(["audit", "--platform", "ios", android])
        XCTAssertEqual(conflict.status, 2, conflict.stdout)
        XCTAssertTrue(conflict.stderr.contains("platform-conflict") || conflict.stdout.contains("platform-conflict"), conflict.stderr + conflict.stdout)
    }

    func testTextOutputAndExitCodes() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let checkout = DaemonHarness.examples.appendingPathComponent("checkout.xml").path
        let text = try daemon.auditctl(["audit", checkout])
        XCTAssertEqual(text.status, 1, text.stderr)
        XCTAssertTrue(
            text.stdout.contains("\(checkout):9:5: error: [label.missing] button has no accessible name; VoiceOver reads the image name \"icon_close\" (close)"), text.stdout)
        XCTAssertTrue(
            text.stdout.contains(
                ": error: [contrast.text] Text contrast 2.21:1 is below 4.5:1 (#AEAEB2 on #FFFFFF; not large: 12 pt, large from 24 pt, or 18.66 pt bold) (terms)"),
            text.stdout)
        XCTAssertTrue(text.stdout.contains("1 snapshot: 8 errors, 6 warnings"), text.stdout)
        XCTAssertFalse(text.stdout.contains("\u{1B}["), "no colour when not a terminal")
        XCTAssertTrue(try daemon.auditctl(["audit", "--color", "always", checkout]).stdout.contains("\u{1B}[1;31merror"))

        XCTAssertEqual(try daemon.auditctl(["audit", "--fail-on", "never", checkout]).status, 0)
        XCTAssertEqual(try daemon.auditctl(["audit", "--fail-on", "warning", checkout]).status, 1)
        // A snapshot with only warnings: fails on warning, passes on error.
        let warningsOnly = """
            <snapshot version="1" platform="ios" app="a" screen="s"><element id="r" role="window" frame="0,0,390,844" background="#FFFFFF">
            <element id="b" role="button" label="Play button" frame="10,10,60,60"/></element></snapshot>
            """
        XCTAssertEqual(try daemon.auditctl(["audit", "-"], stdin: Array(warningsOnly.utf8)).status, 0)
        XCTAssertEqual(try daemon.auditctl(["audit", "--fail-on", "warning", "-"], stdin: Array(warningsOnly.utf8)).status, 1)
        XCTAssertEqual(try daemon.auditctl(["audit", "--fail-on", "notice", "-"], stdin: Array(warningsOnly.utf8)).status, 1)
        // A malformed snapshot is an input error (2) with its line and column.
        let malformed = try daemon.auditctl(["audit", "-"], stdin: Array("<snapshot version=\"1\">\n<element>".utf8))
        XCTAssertEqual(malformed.status, 2)
        XCTAssertTrue(malformed.stdout.contains("<stdin>:2:"), malformed.stdout)
        // Several files, directories walked, concurrently.
        let all = try daemon.auditctl(["audit", "--jobs", "4", DaemonHarness.examples.path])
        XCTAssertTrue(all.stdout.contains("7 snapshots:"), all.stdout)
    }

    func testUnreachableDaemonSaysHowToStartIt() throws {
        let daemon = try DaemonHarness()
        let run = try daemon.auditctl(["audit", DaemonHarness.examples.appendingPathComponent("checkout.xml").path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("cannot reach auditd at \(daemon.socket)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("auditd --socket"), run.stderr)
    }

    func testArgumentErrorsSuggestTheClosest() throws {
        let daemon = try DaemonHarness()
        let typo = try daemon.auditctl(["audit", "--formt", "json", "x.xml"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("unknown option '--formt'"), typo.stderr)
        XCTAssertTrue(typo.stderr.contains("did you mean '--format'"), typo.stderr)
        let command = try daemon.auditctl(["audt"])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains("did you mean 'audit'"), command.stderr)
        // Before the command: an unknown option is an error naming it (issue 56: `--bogus`
        // printed the help and exited 0, `--sokcet X audit` said "unknown command 'X'").
        let bogus = try daemon.auditctl(["--bogus"])
        XCTAssertEqual(bogus.status, 2)
        XCTAssertTrue(bogus.stderr.contains("unknown option '--bogus'"), bogus.stderr)
        let misspelt = try daemon.auditctl(["--sokcet", "X", "audit"])
        XCTAssertEqual(misspelt.status, 2)
        XCTAssertTrue(misspelt.stderr.contains("unknown option '--sokcet'; did you mean '--socket'?"), misspelt.stderr)
        let nothing = try daemon.auditctl(["--socket", "X"])
        XCTAssertEqual(nothing.status, 2)
        XCTAssertTrue(nothing.stderr.contains("no command after --socket X"), nothing.stderr)
        let choice = try daemon.auditctl(["audit", "--format", "sarf", "x.xml"])
        XCTAssertTrue(choice.stderr.contains("did you mean 'sarif'"), choice.stderr)
        XCTAssertEqual(try daemon.auditctl(["--version"]).stdout, "auditctl 0.1.0\n")
        for command in ["audit", "watch", "rules", "status", "validate", "inspect"] {
            let help = try daemon.auditctl(["help", command])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("USAGE: auditctl \(command)"), help.stdout)
            XCTAssertEqual(try daemon.auditctl([command, "--help"]).stdout, help.stdout)
        }
        // `--` ends options: a file named like an option.
        let dashed = try daemon.auditctl(["validate", "--", "--weird.xml"])
        XCTAssertTrue(dashed.stderr.contains("--weird.xml: cannot read"), dashed.stderr)
        // Common options before the command name.
        XCTAssertEqual(try daemon.auditctl(["--quiet", "validate", DaemonHarness.examples.appendingPathComponent("checkout.xml").path]).status, 0)
    }

    func testSARIFValidatesAgainstTheSchema() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let output = daemon.directory.appendingPathComponent("report.sarif").path
        let run = try daemon.auditctl(["audit", "--format", "sarif", "--output", output, DaemonHarness.examples.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        let schema = AuditctlTests.schemas.appendingPathComponent("sarif-schema-2.1.0.json").path
        let check = try daemon.run(
            "python3",
            [
                "-c",
                """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[1])); log = json.load(open(sys.argv[2]))
                jsonschema.validate(log, schema)
                run = log["runs"][0]
                rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
                assert all(r["ruleId"] in rules for r in run["results"] if r["ruleId"] != "snapshot.unreadable")
                assert any(r["kind"] == "review" and r["level"] == "none" for r in run["results"])
                assert all("auditd/v4" in r["partialFingerprints"] for r in run["results"] if r["kind"] == "fail")
                assert any(r["locations"][0].get("logicalLocations") for r in run["results"])
                print("ok", len(run["results"]))
                """, schema, output,
            ])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.hasPrefix("ok"), check.stdout)
    }

    func testJUnitValidatesAgainstTheSchema() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let output = daemon.directory.appendingPathComponent("report.xml").path
        _ = try daemon.auditctl(["audit", "--format", "junit", "--output", output, DaemonHarness.examples.path])
        let schema = AuditctlTests.schemas.appendingPathComponent("JUnit.xsd").path
        let check = try daemon.run("xmllint", ["--noout", "--schema", schema, output])
        XCTAssertEqual(check.status, 0, check.stderr)
        let xml = try String(contentsOfFile: output, encoding: .utf8)
        XCTAssertEqual(xml.components(separatedBy: "<testsuite ").count - 1, 7)
        XCTAssertTrue(xml.contains("<testcase name=\"label.missing: button “icon_close”\""), xml)
        XCTAssertTrue(xml.contains("<skipped message=\"incomplete:"))
    }

    func testJSONAndJSONLAndBaselineStates() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let original = DaemonHarness.example("checkout.xml")
        let before = daemon.directory.appendingPathComponent("checkout.xml")
        try Data(original).write(to: before)
        let baseline = daemon.directory.appendingPathComponent("baseline.json").path
        XCTAssertEqual(try daemon.auditctl(["audit", "--format", "json", "--output", baseline, before.path]).status, 1)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [[String: Any]])
        XCTAssertEqual(reports.first?["file"] as? String, before.path)
        XCTAssertNotNil(reports.first?["audit"])

        // The next build fixes the close button and breaks the pay button.
        var text = String(decoding: original, as: UTF8.self)
        text = text.replacingOccurrences(
            of: "image=\"icon_close\" frame=\"350,50,24,24\" foreground=\"#C7C7CC\"",
            with: "image=\"icon_close\" label=\"Close\" frame=\"340,40,44,44\" foreground=\"#3C3C43\"")
        text = text.replacingOccurrences(of: "text=\"Pay $101.00\"", with: "text=\"Pay $101.00\" label=\"Pay button\"")
        try Data(text.utf8).write(to: before)
        let compared = try daemon.auditctl(["audit", "--format", "json", "--baseline", baseline, before.path])
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(compared.stdout.utf8)) as? [[String: Any]])?.first)
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        let states = Dictionary(grouping: findings, by: { $0["baselineState"] as? String ?? "" }).mapValues(\.count)
        XCTAssertEqual(states["new"], 1, "\(states)")
        XCTAssertGreaterThan(states["unchanged"] ?? 0, 5)
        let absent = try XCTUnwrap(report["absent"] as? [[String: Any]])
        XCTAssertEqual(Set(absent.compactMap { $0["rule"] as? String }), ["label.missing", "contrast.non-text", "target-size"])
        // With a baseline only new findings fail: the new one is a warning.
        XCTAssertEqual(compared.status, 0, "the only new finding is a warning")
        XCTAssertEqual(try daemon.auditctl(["audit", "--fail-on", "warning", "--baseline", baseline, before.path]).status, 1)

        // SARIF works as a baseline too.
        let sarif = daemon.directory.appendingPathComponent("baseline.sarif").path
        try Data(original).write(to: before)
        _ = try daemon.auditctl(["audit", "--format", "sarif", "--output", sarif, before.path])
        try Data(text.utf8).write(to: before)
        let fromSARIF = try daemon.auditctl(["audit", "--format", "jsonl", "--baseline", sarif, before.path])
        let lines = fromSARIF.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(lines.filter { $0["baselineState"] as? String == "new" }.count, 1, fromSARIF.stdout)
        XCTAssertTrue(lines.allSatisfy { $0["app"] as? String == "com.example.shop" && $0["screen"] as? String == "Checkout" })
    }

    /// A baseline saved before fingerprint version 2 (no `fingerprint_version`, other
    /// fingerprints) still works: findings are matched by rule, element and message, and
    /// auditctl says so.
    func testBaselineOfAnOlderFingerprintSchemeIsMatchedByContent() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let file = DaemonHarness.examples.appendingPathComponent("checkout.xml").path
        let saved = try daemon.auditctl(["audit", "--format", "json", file])
        var old = saved.stdout.replacingOccurrences(of: #""fingerprint_version": 4,"#, with: "")
        old = old.replacingOccurrences(of: #""fingerprint": ""#, with: #""fingerprint": "v1-"#)
        XCTAssertFalse(old.contains("fingerprint_version"), "the test must remove the version")
        let baseline = daemon.directory.appendingPathComponent("old.json")
        try old.write(to: baseline, atomically: true, encoding: .utf8)
        let compared = try daemon.auditctl(["audit", "--format", "jsonl", "--baseline", baseline.path, file])
        XCTAssertTrue(compared.stderr.contains("older fingerprint scheme"), compared.stderr)
        let states = compared.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["baselineState"] as? String }
        XCTAssertFalse(states.isEmpty)
        XCTAssertEqual(Set(states), ["unchanged"], compared.stdout)
        XCTAssertEqual(compared.status, 0, "nothing new")
    }

    /// `--format json` re-indents the daemon's report byte by byte: strings with escaped
    /// quotes, backslashes, control characters and non-ASCII text must come through as
    /// the same values the daemon sent.
    func testJSONReindentingKeepsEveryValue() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let labels = [#"Say \"hi\" button"#, #"C:\\path\\ button"#, "Tab&#9;here button", "播放 button", #"end\\"#, "{[,:]} button"]
        let body = labels.enumerated().map { index, label in
            #"<element id="e\#(index)" role="button" label="\#(label.replacingOccurrences(of: "\"", with: "&quot;"))" frame="\#(index * 50),0,20,20"/>"#
        }.joined(separator: "\n")
        let xml = #"<snapshot version="1" platform="ios" app="a" screen="s"><element role="window" frame="0,0,390,844">"# + body + "</element></snapshot>"
        let file = daemon.directory.appendingPathComponent("escapes.xml")
        try Data(xml.utf8).write(to: file)
        let printed = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", file.path])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [[String: Any]])
        let direct = try daemon.post(Array(xml.utf8))
        var expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(direct.body)) as? [String: Any])
        var got = try XCTUnwrap(reports.first)
        XCTAssertEqual(got.removeValue(forKey: "file") as? String, file.path)
        for key in ["audit", "duration_ms"] { got[key] = nil; expected[key] = nil }
        XCTAssertEqual(NSDictionary(dictionary: got), NSDictionary(dictionary: expected))
        let labelsSeen = (got["findings"] as? [[String: Any]] ?? []).compactMap { ($0["evidence"] as? [String: Any])?["label"] as? String }
        XCTAssertTrue(labelsSeen.contains { $0.contains("\"") && $0.contains("\\") }, "\(labelsSeen)")
        XCTAssertTrue(labelsSeen.contains("Tab\there button"), "\(labelsSeen)")
        XCTAssertTrue(labelsSeen.contains("播放 button"), "\(labelsSeen)")
    }

    /// A regular file goes to the daemon with `sendfile`, standard input and pipes are
    /// read first, and `--format json` is written in pieces as it is formatted: whichever
    /// way in and out, a snapshot and report of hundreds of kilobytes come out the same.
    func testLargeSnapshotFromFileStdinOrPipePrintsTheSameReport() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let cells = (0..<1500).map { index in
            #"<element id="c\#(index)" role="button" image="icon_\#(index)" frame="\#(index % 7 * 50),\#(index * 4),30,30"/>"#
        }.joined(separator: "\n")
        let xml = Array(
            (#"<snapshot version="1" platform="ios" app="a" screen="s"><element id="w" role="window" frame="0,0,390,6000">"#
                + cells + "</element></snapshot>").utf8)
        XCTAssertGreaterThan(xml.count, 64 * 1024, "more than one read of the socket")
        let file = daemon.directory.appendingPathComponent("large.xml")
        try Data(xml).write(to: file)
        /// The report without what differs from one audit to the next, and the file's name.
        func stable(_ text: String) -> [String] {
            text.split(separator: "\n").filter { !$0.contains("\"audit\": ") && !$0.contains("\"duration_ms\": ") && !$0.contains("\"file\": ") }.map(String.init)
        }
        let fromFile = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", file.path])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssertGreaterThan(fromFile.stdout.utf8.count, 512 * 1024, "larger than the output's 256 KiB pieces")
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(fromFile.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual((reports.first?["findings"] as? [Any])?.count ?? 0 >= 1500, true, "every unlabeled button reported")

        let fromStdin = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", "-"], stdin: xml)
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertEqual(stable(fromStdin.stdout), stable(fromFile.stdout))

        let fifo = daemon.directory.appendingPathComponent("pipe.xml").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(xml))
                try? handle.close()
            }
        }
        writer.start()
        let fromPipe = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", fifo])
        XCTAssertEqual(fromPipe.status, 0, fromPipe.stderr)
        XCTAssertEqual(stable(fromPipe.stdout), stable(fromFile.stdout))

        let output = daemon.directory.appendingPathComponent("report.json").path
        let toFile = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", "--output", output, file.path])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(toFile.stdout, "")
        XCTAssertEqual(stable(try String(contentsOfFile: output, encoding: .utf8)), stable(fromFile.stdout))

        let missing = try daemon.auditctl(["audit", daemon.directory.appendingPathComponent("absent.xml").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("absent.xml: cannot read the file"), missing.stderr)
        let unwritable = try daemon.auditctl(["audit", "--output", daemon.directory.appendingPathComponent("no/such/dir.json").path, file.path])
        XCTAssertEqual(unwritable.status, 2)
        XCTAssertTrue(unwritable.stderr.contains("cannot write the report"), unwritable.stderr)
    }

    /// A file over the daemon's limit: the daemon answers 413 and closes before the file
    /// is all sent. auditctl reports that answer (not a broken pipe, and not killed by
    /// SIGPIPE, which `sendfile` would raise).
    /// `--timing` tells, on standard error, each snapshot's time and auditd's phases, and
    /// leaves the report on standard output as it was.
    func testTimingPrintsEachSnapshotsPhasesOnStandardError() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let checkout = DaemonHarness.examples.appendingPathComponent("checkout.xml").path
        let mailbox = DaemonHarness.examples.appendingPathComponent("mailbox.xml").path
        let plain = try daemon.auditctl(["audit", "--fail-on", "never", checkout, mailbox])
        let timed = try daemon.auditctl(["audit", "--fail-on", "never", "--timing", checkout, mailbox])
        XCTAssertEqual(timed.status, 0, timed.stderr)
        XCTAssertEqual(timed.stdout, plain.stdout, "--timing writes to standard error only")
        let lines = timed.stderr.split(separator: "\n").map(String.init)
        let phases =
            #"\(auditd: receive [0-9]+\.[0-9], queue [0-9]+\.[0-9], parse [0-9]+\.[0-9], rules [0-9]+\.[0-9], "#
            + #"findings [0-9]+\.[0-9], render [0-9]+\.[0-9], journal [0-9]+\.[0-9] ms\)"#
        for file in [checkout, mailbox] {
            let line = try XCTUnwrap(lines.first { $0.hasPrefix("auditctl: timing: \(file): ") }, timed.stderr)
            XCTAssertNotNil(line.range(of: #"^auditctl: timing: .*: [0-9]+\.[0-9] ms "# + phases + "$", options: .regularExpression), line)
        }
        XCTAssertNotNil(
            lines.last?.range(
                of: #"^auditctl: timing: report written in [0-9]+\.[0-9] ms; audit command [0-9]+\.[0-9] ms$"#,
                options: .regularExpression), timed.stderr)
        XCTAssertFalse(plain.stderr.contains("timing"), plain.stderr)
    }

    func testSnapshotOverTheLimitReportsTheDaemonsAnswer() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--max-snapshot-bytes", "100000"])
        let cells = String(repeating: #"<element role="button" label="Buy" frame="0,0,44,44"/>"# + "\n", count: 20_000)
        let file = daemon.directory.appendingPathComponent("over.xml")
        try Data(
            (#"<snapshot version="1" platform="ios"><element role="window" frame="0,0,390,844">"# + cells
                + "</element></snapshot>").utf8
        ).write(to: file)
        let text = try daemon.auditctl(["audit", file.path])
        XCTAssertEqual(text.status, 2, text.stderr)
        XCTAssertTrue(text.stdout.contains("over the limit of 100000 [too-large]"), text.stdout + text.stderr)
        let json = try daemon.auditctl(["audit", "--format", "json", file.path])
        XCTAssertEqual(json.status, 2)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(reports.first?["status"] as? Int, 413)
    }

    func testRulesStatusAndWatch() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let rules = try daemon.auditctl(["rules", "--ruleset", "ios-default", "--format", "json"])
        XCTAssertEqual(rules.status, 0, rules.stderr)
        XCTAssertTrue(rules.stdout.contains("\"platform-minimum\": 44"), rules.stdout)
        let markdown = try daemon.auditctl(["rules", "--format", "markdown"])
        XCTAssertTrue(markdown.stdout.contains("## contrast.text"))
        let status = try daemon.auditctl(["status"])
        XCTAssertEqual(status.status, 0)
        XCTAssertTrue(status.stdout.contains("ok on \(daemon.socket)"), status.stdout)

        // watch follows, and resumes across a daemon restart.
        let watcher = Process()
        watcher.executableURL = DaemonHarness.binaries.appendingPathComponent("auditctl")
        watcher.arguments = ["watch", "--since", "0", "--format", "jsonl", "--rule", "label.mis*", "--count", "2"]
        var environment = ProcessInfo.processInfo.environment
        environment["AUDITD_SOCKET"] = daemon.socket
        watcher.environment = environment
        let out = Pipe()
        watcher.standardOutput = out
        watcher.standardError = Pipe()
        try watcher.run()
        let mailbox = DaemonHarness.example("mailbox.xml")
        XCTAssertEqual(try daemon.post(mailbox).status, 200)
        _ = daemon.stop()
        try daemon.start()
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200)
        let deadline = Date().addingTimeInterval(10)
        while watcher.isRunning, Date() < deadline { usleep(50_000) }
        XCTAssertFalse(watcher.isRunning, "watch stops after --count records")
        if watcher.isRunning { watcher.terminate() }
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        let screens = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["screen"] as? String }
        XCTAssertEqual(screens, ["Inbox", "Checkout"], "one before the restart, one after")
    }

    func testProgressOnlyOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("script(1) is not installed") }
        let daemon = try DaemonHarness()
        try daemon.start()
        let command = "\(DaemonHarness.binaries.appendingPathComponent("auditctl").path) audit --fail-on never \(DaemonHarness.examples.path) > /dev/null"
        let onTerminal = try daemon.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        XCTAssertTrue(onTerminal.stdout.contains("snapshots"), onTerminal.stdout)
        XCTAssertTrue(onTerminal.stdout.contains("[="), onTerminal.stdout)
        let plain = try daemon.auditctl(["audit", "--fail-on", "never", DaemonHarness.examples.path])
        XCTAssertFalse(plain.stderr.contains("[="), plain.stderr)
    }

    func testHTMLReportIsSelfContained() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let output = daemon.directory.appendingPathComponent("report.html")
        _ = try daemon.auditctl(["audit", "--format", "html", "--output", output.path, DaemonHarness.examples.path])
        let html = try String(contentsOf: output, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        // Nothing is loaded from elsewhere (links to WCAG's pages are links, not assets).
        for asset in ["src=\"http", "<link ", "url(http", "@import", "<iframe"] { XCTAssertFalse(html.contains(asset), asset) }
        XCTAssertEqual(html.components(separatedBy: "<svg class=\"screen\"").count - 1, 7)
        XCTAssertTrue(html.contains("class=\"marker sev-error\""))
        XCTAssertTrue(html.contains("<main id=\"main\">") && html.contains("<h2 id=\"summary-heading\">Summary</h2>"))
    }
}

/// Generated files are up to date with the code they come from.
final class GeneratedFilesTests: XCTestCase {
    func testRulesDocumentationAndCompletionsAreCurrent() throws {
        let daemon = try DaemonHarness()
        let root = DaemonHarness.packageRoot
        let markdown = try daemon.auditctl(["rules", "--format", "markdown"])
        XCTAssertEqual(
            markdown.stdout, try String(contentsOf: root.appendingPathComponent("docs/rules.md"), encoding: .utf8),
            "regenerate with: auditctl rules --format markdown > docs/rules.md")
        let bash = try daemon.auditctl(["completions", "bash"])
        XCTAssertEqual(bash.stdout, try String(contentsOf: root.appendingPathComponent("scripts/completions/auditctl.bash"), encoding: .utf8))
        let zsh = try daemon.auditctl(["completions", "zsh"])
        XCTAssertEqual(zsh.stdout, try String(contentsOf: root.appendingPathComponent("scripts/completions/_auditctl"), encoding: .utf8))
        let syntax = try daemon.run("bash", ["-n", root.appendingPathComponent("scripts/completions/auditctl.bash").path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
    }

    /// The command lists of docs/CLI.md and docs/auditctl.1 are the ones the command
    /// declarations generate (`auditctl help --markdown|--man`); scripts/generate-docs
    /// rewrites them.
    func testCLIReferenceAndManPageAreGeneratedFromTheSpecs() throws {
        let daemon = try DaemonHarness()
        for (file, flag) in [("docs/CLI.md", "--markdown"), ("docs/auditctl.1", "--man")] {
            let text = try String(contentsOf: DaemonHarness.packageRoot.appendingPathComponent(file), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            let start = try XCTUnwrap(lines.firstIndex { $0.contains("BEGIN GENERATED by `auditctl") }, file)
            let end = try XCTUnwrap(lines.indices.first { $0 > start && lines[$0].contains("END GENERATED") }, file)
            let committed = lines[start...end].joined(separator: "\n") + "\n"
            let generated = try daemon.auditctl(["help", flag])
            XCTAssertEqual(generated.status, 0)
            XCTAssertEqual(committed, generated.stdout, "\(file) is stale: run scripts/generate-docs")
            // Every option of every command is in it.
            for option in ["--no-screenshots", "--baseline", "--count", "--screenshot", "--timeout"] {
                XCTAssertTrue(committed.contains(flag == "--man" ? option.replacingOccurrences(of: "-", with: "\\-") : option), "\(file): \(option)")
            }
        }
    }

    /// docs/API.md's table of routes is the one the daemon's route table generates (issue 56:
    /// the routes as data), and each route it lists is served: its method answers, another
    /// method is 405 naming it.
    func testTheAPIRoutesTableIsGeneratedFromTheRouteTable() throws {
        let daemon = try DaemonHarness()
        let text = try String(contentsOf: DaemonHarness.packageRoot.appendingPathComponent("docs/API.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.contains("BEGIN GENERATED by `auditd --help-api`") })
        let end = try XCTUnwrap(lines.indices.first { $0 > start && lines[$0].contains("END GENERATED") })
        let generated = try daemon.run(DaemonHarness.binaries.appendingPathComponent("auditd").path, ["--help-api"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        XCTAssertEqual(lines[start...end].joined(separator: "\n") + "\n", generated.stdout, "docs/API.md is stale: run scripts/generate-docs")
        try daemon.start()
        let routes = generated.stdout.components(separatedBy: "\n").compactMap { line -> (method: String, path: String)? in
            guard line.hasPrefix("| `"), let close = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let parts = line[line.index(line.startIndex, offsetBy: 3)..<close].split(separator: " ", maxSplits: 1)
            let path = String(parts[1].prefix { $0 != "?" }).replacingOccurrences(of: "NAME", with: "wcag22-aa")
            return (String(parts[0]), path)
        }
        XCTAssertEqual(routes.count, 9)
        for route in routes where route.method == "GET" {
            let other = try daemon.request("DELETE \(route.path) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(other.status, 405, route.path)
            XCTAssertTrue(other.text.contains("use GET"), other.text)
            if route.path.hasPrefix("/v1/findings") { continue }  // a stream
            let answer = try daemon.request("GET \(route.path) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue([200, 400].contains(answer.status), "\(route.path): \(answer.status)")
        }
        XCTAssertEqual(try daemon.request("GET /v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
    }

    /// auditd's options table in docs/CLI.md is the one its declarative spec generates.
    func testDaemonOptionsTableIsGeneratedFromTheSpec() throws {
        let daemon = try DaemonHarness()
        let text = try String(contentsOf: DaemonHarness.packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.contains("BEGIN GENERATED by `auditd --help-markdown`") })
        let end = try XCTUnwrap(lines.indices.first { $0 > start && lines[$0].contains("END GENERATED") })
        let generated = try daemon.run(DaemonHarness.binaries.appendingPathComponent("auditd").path, ["--help-markdown"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        XCTAssertEqual(lines[start...end].joined(separator: "\n") + "\n", generated.stdout, "docs/CLI.md is stale: run scripts/generate-docs")
        // --help and the table come from the same list.
        let help = try daemon.run(DaemonHarness.binaries.appendingPathComponent("auditd").path, ["--help"])
        for option in ["--memory-limit", "--audit-budget", "--allow-gid", "--journal-commit-delay-us"] {
            XCTAssertTrue(help.stdout.contains(option) && generated.stdout.contains("`\(option) "), option)
        }
    }

    func testManPageNamesEveryCommand() throws {
        let page = try String(contentsOf: DaemonHarness.packageRoot.appendingPathComponent("docs/auditctl.1"), encoding: .utf8)
        for command in ["audit", "watch", "rules", "status", "validate", "inspect", "completions"] {
            XCTAssertTrue(page.contains(".B \(command)") || page.contains(".BI \"\(command) "), command)
        }
    }
}

/// Captures that cannot be audited are said so by `validate` and `audit`, never passed as
/// clean; a rule set for the other platform is a warning.
final class UnauditableCaptureTests: XCTestCase {
    func testCapturesWithoutFramesOrForTheOtherPlatformAreSaidSo() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let unmeasured = daemon.directory.appendingPathComponent("unmeasured.xml")
        try
            #"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="-1" y="-1" width="0" height="0"><XCUIElementTypeButton type="XCUIElementTypeButton" name="Pay" label="Pay" x="-1" y="-1" width="0" height="0" enabled="true" visible="true" accessible="true"/></XCUIElementTypeApplication></AppiumAUT>"#
            .write(to: unmeasured, atomically: true, encoding: .utf8)
        let validate = try daemon.auditctl(["validate", unmeasured.path])
        XCTAssertEqual(validate.status, 1, validate.stdout)
        XCTAssertTrue(validate.stdout.contains("None of the 2 elements has a usable frame"), validate.stdout)
        XCTAssertFalse(validate.stdout.contains("valid appium"), validate.stdout)
        let audit = try daemon.auditctl(["audit", "--ruleset", "ios-default", unmeasured.path])
        XCTAssertEqual(audit.status, 1, audit.stdout)
        XCTAssertTrue(audit.stdout.contains("error: [snapshot.unauditable] None of the 2 elements has a usable frame"), audit.stdout)
        // An Android dump audited with the iOS rule set: a warning naming both.
        let android = DaemonHarness.examples.appendingPathComponent("android-login.xml").path
        let crossed = try daemon.auditctl(["audit", "--ruleset", "ios-default", "--fail-on", "never", android])
        XCTAssertTrue(crossed.stdout.contains("warning: [snapshot.unauditable] The rule set is made for ios but the snapshot is android"), crossed.stdout)
        let matched = try daemon.auditctl(["audit", "--ruleset", "android-default", "--fail-on", "never", android])
        XCTAssertFalse(matched.stdout.contains("snapshot.unauditable"), matched.stdout)
    }
}

/// The density of an Android capture, given per run: the report says what decided it.
final class AndroidDensityOptionTests: XCTestCase {
    func testTheDensityGivenIsUsedAndSaid() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let android = DaemonHarness.examples.appendingPathComponent("android-login.xml").path
        for option in ["--android-density", "--density"] {
            let run = try daemon.auditctl(["audit", option, "3", "--format", "json", "--fail-on", "never", android])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.contains("Android density 3 given by the caller"), "\(option): \(run.stdout.prefix(600))")
        }
        let estimated = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", android])
        XCTAssertTrue(estimated.stdout.contains("estimated from the screen's 1080 px short side"), String(estimated.stdout.prefix(600)))
        let conflicting = try daemon.auditctl(["audit", "--android-density", "3", "--density", "2", android])
        XCTAssertEqual(conflicting.status, 2)
        XCTAssertTrue(conflicting.stderr.contains("say two things"), conflicting.stderr)
        let inspect = try daemon.auditctl(["inspect", "--android-density", "x", android])
        XCTAssertEqual(inspect.status, 2)
        XCTAssertTrue(inspect.stderr.contains("option --android-density needs a number from 0.1 to 16.0, not 'x'"), inspect.stderr)
    }
}

/// auditctl decodes each answer once, against what the API promises: a report with a
/// member missing or of the wrong type is an error that names the member, never a report
/// printed with defaults (an auditd of another version, or something else on the socket).
final class AnswerDecodingTests: XCTestCase {
    static let finding =
        #"{"rule":"label.missing","severity":"error","wcag":["4.1.2"],"element":"close","path":"/snapshot/element[1]","line":3,"column":5,"frame":[0,0,10,10],"message":"button has no accessible name","result":"missing","evidence":{"role":"button"},"fingerprint":"00112233aabbccdd"}"#

    static func report(finding: String = finding, summary: String = #"{"error":1,"warning":0,"notice":0,"incomplete":0,"suppressed":0}"#) -> String {
        #"{"audit":"a1","snapshot":{"app":"shop","build":null,"screen":"cart","platform":"ios","dialect":"native","elements":3},"ruleset":"ios-default","duration_ms":1.5,"fingerprint_version":2,"summary":"#
            + summary + #","findings":["# + finding + #"],"incomplete":[],"suppressed":{}}"#
    }

    func testReportsThatBreakTheContractAreErrorsNamingTheMember() throws {
        let harness = try DaemonHarness()
        let snapshot = harness.directory.appendingPathComponent("cart.xml")
        try #"<snapshot version="1" platform="ios"/>"#.write(to: snapshot, atomically: true, encoding: .utf8)
        let cases: [(body: String, expected: String)] = [
            (Self.report(), "cart.xml:3:5: error: [label.missing] button has no accessible name (close)"),
            (
                Self.report(finding: Self.finding.replacingOccurrences(of: #""severity":"error""#, with: #""severity":"fatal""#)),
                #"`findings[0].severity` is "fatal", not one of error, warning, notice [bad-report]"#
            ),
            (
                Self.report(finding: Self.finding.replacingOccurrences(of: #","fingerprint":"00112233aabbccdd""#, with: "")),
                "`findings[0].fingerprint` is missing [bad-report]"
            ),
            (
                Self.report(finding: Self.finding.replacingOccurrences(of: #""line":3"#, with: #""line":"3""#)),
                "`findings[0].line` is not an integer [bad-report]"
            ),
            (
                Self.report(finding: Self.finding.replacingOccurrences(of: "[0,0,10,10]", with: "[0,0,10]")),
                "`findings[0].frame` is not [x, y, width, height] [bad-report]"
            ),
            (Self.report(summary: #"{"error":1}"#), "`summary.warning` is missing [bad-report]"),
            ("<html>proxy</html>", "the daemon's answer is not JSON [bad-report]"),
        ]
        for (index, item) in cases.enumerated() {
            let body = item.body
            let fake = try ScriptedDaemon(socket: harness.socket) { _ in (200, body) }
            let run = try harness.auditctl(["audit", "--fail-on", "never", snapshot.path])
            XCTAssertTrue(run.stdout.contains(item.expected), "case \(index): \(run.stdout) \(run.stderr)")
            XCTAssertEqual(run.status, index == 0 ? 0 : 2, "case \(index): a report auditctl cannot read is not a clean run")
            if index > 0 {
                XCTAssertTrue(run.stdout.contains("note: is"), "case \(index) gives a hint: \(run.stdout)")
                // `--format json` passes a report's findings through as they came (it reads
                // only the summary, for --fail-on): never rewritten with made-up values; a
                // summary or a body it cannot read is the same error.
                let json = try harness.auditctl(["audit", "--format", "json", "--fail-on", "never", snapshot.path])
                if index < 5 {
                    XCTAssertEqual(json.status, 0, "case \(index) json")
                    XCTAssertTrue(json.stdout.contains(#""findings": ["#), "case \(index) json: \(json.stdout)")
                } else {
                    XCTAssertEqual(json.status, 2, "case \(index) json")
                    XCTAssertTrue(json.stdout.contains(#""code": "bad-report""#), "case \(index) json: \(json.stdout)")
                }
            }
            withExtendedLifetime(fake) {}
            unlink(harness.socket)
        }
    }

    func testARuleSetDescriptionThatBreaksTheContractIsAnError() throws {
        let harness = try DaemonHarness()
        let snapshot = harness.directory.appendingPathComponent("cart.xml")
        try #"<snapshot version="1" platform="ios"/>"#.write(to: snapshot, atomically: true, encoding: .utf8)
        let report = Self.report()
        let fake = try ScriptedDaemon(socket: harness.socket) { request in
            request.hasPrefix("GET /v1/rulesets/") ? (200, #"{"name":"ios-default","rules":[{"id":"label.missing","severity":"loud"}]}"#) : (200, report)
        }
        defer { withExtendedLifetime(fake) {} }
        let run = try harness.auditctl(["audit", "--format", "sarif", snapshot.path])
        XCTAssertEqual(run.status, 2, run.stdout)
        XCTAssertTrue(run.stderr.contains(#"rule set ios-default is not one auditctl can read: `rules[0].severity` is "loud""#), run.stderr)
    }
}
