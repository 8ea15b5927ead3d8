import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Start-up, signals, faults and the journal's durability, against the real process.
final class DaemonLifecycleTests: XCTestCase {
    func testSIGTERMDrainsInFlightAudits() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--workers", "1", "--queue-depth", "64"])
        let body = DaemonHarness.example("checkout.xml")
        let statuses = Statuses()
        let group = DispatchGroup()
        for _ in 0..<16 {
            DispatchQueue.global().async(group: group) {
                statuses.add((try? daemon.post(body).status) ?? -1)
            }
        }
        // SIGTERM once audits are in flight or queued (polled, not slept).
        _ = daemon.waitUntil { (daemon.metric("auditd_audits_in_flight") ?? 0) + (daemon.metric("auditd_queue_depth") ?? 0) >= 1 || !statuses.all.isEmpty }
        XCTAssertEqual(daemon.stop(), 0)
        group.wait()
        let answered = statuses.all.filter { $0 == 200 }.count
        // Requests that reached the daemon before SIGTERM are answered 200; late ones are refused (-1 or 503).
        XCTAssertTrue(statuses.all.allSatisfy { $0 == 200 || $0 == 503 || $0 == -1 }, "\(statuses.all)")
        let audits = daemon.journalRecords().filter { $0["type"] as? String == "audit" }
        XCTAssertGreaterThanOrEqual(audits.count, answered, "every 200 is journalled")
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socket))
        XCTAssertTrue(daemon.log.contains("stopped"), daemon.log)
    }

    func testKillNineUnderLoadLosesNothingAcknowledged() throws {
        let daemon = try DaemonHarness()
        var acknowledged = Set<String>()
        var lastSeq = 0
        for round in 0..<3 {
            try daemon.start()
            let ids = IDs()
            let stop = Flag()
            let group = DispatchGroup()
            for client in 0..<8 {
                DispatchQueue.global().async(group: group) {
                    let body = DaemonHarness.example(["checkout.xml", "mailbox.xml"][client % 2])
                    while !stop.isSet {
                        guard let response = try? daemon.post(body) else { continue }
                        if response.status == 200, let id = (response.json as? [String: Any])?["audit"] as? String { ids.add(id) }
                    }
                }
            }
            XCTAssertTrue(daemon.waitUntil(seconds: 30) { ids.all.count >= 10 }, "no audit acknowledged under load")
            _ = daemon.stop(signal: SIGKILL)
            stop.set()
            group.wait()
            acknowledged.formUnion(ids.all)
            let records = daemon.journalRecords(tornTail: true)
            let journalled = Set(records.compactMap { $0["type"] as? String == "audit" ? $0["audit"] as? String : nil })
            XCTAssertTrue(acknowledged.isSubset(of: journalled), "round \(round): \(acknowledged.subtracting(journalled).count) acknowledged audits missing")
            let seqs = records.compactMap { $0["seq"] as? Int }
            XCTAssertEqual(seqs, seqs.sorted(), "seq increases")
            XCTAssertGreaterThan(seqs.last ?? 0, lastSeq, "seq continues across restarts")
            lastSeq = seqs.last ?? 0
        }
        XCTAssertGreaterThan(acknowledged.count, 10)
    }

    func testTornLastLineIsTruncatedAndSeqContinues() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        XCTAssertEqual(try daemon.post(DaemonHarness.example("mailbox.xml")).status, 200)
        XCTAssertEqual(daemon.stop(), 0)
        let before = daemon.journalRecords().count
        // A crash mid-write leaves half a line.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: daemon.journal))
        handle.seekToEndOfFile()
        handle.write(Data("{\"seq\":999,\"time\":\"2026-".utf8))
        try handle.close()
        try daemon.start()
        XCTAssertTrue(daemon.log.contains("truncated a torn last line"), daemon.log)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("mailbox.xml")).status, 200)
        XCTAssertEqual(daemon.stop(), 0)
        let records = daemon.journalRecords()
        let seqs = records.compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs, Array(1...seqs.count))
        XCTAssertEqual(records.count, before * 2)
    }

    func testFollowStreamsNewRecords() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200)
        let firstCount = daemon.journalRecords().count
        let fd = try daemon.connect()
        defer { close(fd) }
        daemon.send(fd, "GET /v1/findings?since=\(firstCount)&follow=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        // The head is sent once the follower is registered: wait for it, not for a time.
        var received = ""
        while !received.contains("\r\n\r\n") {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += String(decoding: chunk[0..<count], as: UTF8.self)
        }
        XCTAssertEqual(try daemon.post(DaemonHarness.example("mailbox.xml")).status, 200)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !received.contains("\"type\":\"finding\"") || !received.contains("\"screen\":\"Inbox\"") {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += String(decoding: chunk[0..<count], as: UTF8.self)
        }
        XCTAssertTrue(received.contains("Transfer-Encoding: chunked"), received)
        XCTAssertTrue(received.contains("\"seq\":\(firstCount + 1),"), received)
        XCTAssertFalse(received.contains("\"seq\":\(firstCount),"), "since is exclusive")
        XCTAssertTrue(received.contains("\"screen\":\"Inbox\""))
    }

    func testStaleSocketIsReplacedAndLiveOneRefused() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        XCTAssertEqual(daemon.stop(signal: SIGKILL), 9)
        XCTAssertTrue(FileManager.default.fileExists(atPath: daemon.socket), "kill -9 leaves the socket file")
        try daemon.start()
        XCTAssertTrue(daemon.log.contains("replacing a stale socket file"), daemon.log)
        let second = try DaemonHarness()
        let clash = try second.run(
            DaemonHarness.binaries.appendingPathComponent("auditd").path,
            ["--socket", daemon.socket, "--journal", second.journal, "--rules", DaemonHarness.rules.path])
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("already listening"), clash.stderr)
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200, "the live daemon is untouched")
    }

    /// One writer per journal: a second daemon on another socket with the same journal (or
    /// the same trend index) refuses to start, naming the first one's pid and socket, and
    /// the first journals on alone; once the first is gone (kill -9 included), the lock
    /// goes with it.
    func testTwoDaemonsCannotShareAJournal() throws {
        let first = try DaemonHarness()
        let firstProcess = try first.start()
        XCTAssertEqual(try first.post(DaemonHarness.example("checkout.xml")).status, 200)
        let second = try DaemonHarness()
        let auditd = DaemonHarness.binaries.appendingPathComponent("auditd").path
        let clash = try second.run(auditd, ["--socket", second.socket, "--journal", first.journal, "--rules", DaemonHarness.rules.path])
        XCTAssertEqual(clash.status, 1, clash.stderr)
        XCTAssertTrue(clash.stderr.contains("held by another auditd (pid \(firstProcess.processIdentifier), socket \(first.socket))"), clash.stderr)
        XCTAssertTrue(clash.stderr.contains("give this one another --journal"), clash.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: second.socket), "the second daemon never listened")
        // The index alone shared (another journal, the first's index): refused too.
        let index = try second.run(
            auditd,
            ["--socket", second.socket, "--journal", second.journal, "--trend-index", first.journal + ".index.sqlite", "--rules", DaemonHarness.rules.path])
        XCTAssertEqual(index.status, 1, index.stderr)
        XCTAssertTrue(index.stderr.contains(".index.sqlite.lock is held by another auditd"), index.stderr)
        // The first journals on alone: sequence numbers stay one series.
        XCTAssertEqual(try first.post(DaemonHarness.example("checkout.xml")).status, 200)
        let seqs = first.journalRecords().compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs, Array(1...seqs.count))
        // Gone however it went, the first lets go: the second starts on its journal and
        // continues its sequence.
        XCTAssertEqual(first.stop(signal: SIGKILL), 9)
        try second.start(["--journal", first.journal])
        XCTAssertEqual(try second.post(DaemonHarness.example("checkout.xml")).status, 200)
        let after = first.journalRecords().compactMap { $0["seq"] as? Int }
        XCTAssertEqual(after, Array(1...after.count), "one series across the two daemons")
    }

    func testSIGHUPReloadsAndKeepsOldSetsOnBrokenFile() throws {
        let daemon = try DaemonHarness()
        let rules = daemon.directory.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: DaemonHarness.rules.path) {
            try FileManager.default.copyItem(at: DaemonHarness.rules.appendingPathComponent(name), to: rules.appendingPathComponent(name))
        }
        try daemon.start(rules: [rules.path])
        let pid = try XCTUnwrap(daemon.process?.processIdentifier)
        try #"{"name": "team", "extends": "wcag22-aa"}"#.write(to: rules.appendingPathComponent("team.json"), atomically: true, encoding: .utf8)
        kill(pid, SIGHUP)
        XCTAssertTrue(daemon.waitUntil { daemon.log.contains("rule sets reloaded") }, daemon.log)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?ruleset=team").status, 200)
        try #"{"name": "broken", "rules": {"nope": true}}"#.write(to: rules.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        kill(pid, SIGHUP)
        XCTAssertTrue(daemon.waitUntil { daemon.log.contains("rule-set reload failed") }, daemon.log)
        XCTAssertTrue(daemon.log.contains("rules.nope"), daemon.log)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?ruleset=team").status, 200, "old sets kept")
    }

    func testDiskFullAnswers507AndRecovers() throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: (daemon.journal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // /dev/full accepts the open and fails every write with ENOSPC.
        try FileManager.default.createSymbolicLink(atPath: daemon.journal, withDestinationPath: "/dev/full")
        try daemon.start()
        let full = try daemon.post(DaemonHarness.example("checkout.xml"))
        XCTAssertEqual(full.status, 507)
        XCTAssertEqual(((full.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String, "journal-write-failed")
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200, "no crash")
        // Space returns: the journal path now leads to a real file.
        try FileManager.default.removeItem(atPath: daemon.journal)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200)
        let records = daemon.journalRecords()
        XCTAssertEqual(records.first?["seq"] as? Int, 1, "the failed batch did not consume seq numbers")
        XCTAssertEqual(records.first?["type"] as? String, "audit")
    }

    func testRotationKeepsNFiles() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--journal-max-bytes", "4096", "--journal-keep", "2"])
        for _ in 0..<12 { XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: daemon.journal + ".1"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: daemon.journal + ".2"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.journal + ".3"))
        // Reading since 0 walks the rotated files in order.
        let all = try daemon.request("GET /v1/findings?since=0 HTTP/1.1\r\nHost: x\r\n\r\n").text
        let seqs = all.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["seq"] as? Int }
        XCTAssertEqual(seqs, seqs.sorted())
        XCTAssertGreaterThan(seqs.count, 10)
    }

    func testSocketActivation() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate") else {
            throw XCTSkip("systemd-socket-activate is not installed")
        }
        let daemon = try DaemonHarness()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        // systemd-socket-activate passes on only the variables it is told to: keep the
        // sanitizer settings of a sanitized run.
        let passOn = ["ASAN_OPTIONS", "TSAN_OPTIONS"].filter { ProcessInfo.processInfo.environment[$0] != nil }.flatMap { ["-E", $0] }
        process.arguments =
            passOn + [
                "-l", daemon.socket, DaemonHarness.binaries.appendingPathComponent("auditd").path,
                "--journal", daemon.journal, "--rules", DaemonHarness.rules.path, "--socket", daemon.socket,
            ]
        let log = Pipe()
        process.standardError = log
        try process.run()
        daemon.process = process
        var status = 0
        for _ in 0..<400 {
            if let response = try? daemon.post(DaemonHarness.example("mailbox.xml")) { status = response.status; break }
            usleep(50_000)
        }
        XCTAssertEqual(status, 200)
        kill(process.processIdentifier, SIGTERM)
        XCTAssertEqual(DaemonHarness.wait(process, seconds: 30), 0)
        XCTAssertTrue(String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("using the socket passed by systemd"))
    }

    func testPeerWithAnotherUIDIsRefused() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv")
        }
        let daemon = try DaemonHarness()
        try daemon.start(["--socket-mode", "0666"])
        let refused = try daemon.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "curl", "-s", "-w", "\n%{http_code}",
                "--unix-socket", daemon.socket, "http://localhost/v1/health",
            ])
        XCTAssertTrue(refused.stdout.hasSuffix("403"), refused.stdout + refused.stderr)
        XCTAssertTrue(daemon.log.contains("refused a peer that is not allowed"), daemon.log)
        XCTAssertTrue(daemon.log.contains("uid=65534"))
        // Allowed once named.
        _ = daemon.stop()
        try daemon.start(["--socket-mode", "0666", "--allow-uid", "65534"])
        let allowed = try daemon.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "curl", "-s", "-w", "\n%{http_code}",
                "--unix-socket", daemon.socket, "http://localhost/v1/health",
            ])
        XCTAssertTrue(allowed.stdout.hasSuffix("200"), allowed.stdout)
    }
}

final class IDs: @unchecked Sendable {
    private let lock = NSLock()
    private var values = Set<String>()
    func add(_ value: String) { lock.lock(); values.insert(value); lock.unlock() }
    var all: Set<String> { lock.lock(); defer { lock.unlock() }; return values }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

/// systemd integration and configuration errors.
final class DaemonSystemdTests: XCTestCase {
    func testNotifiesSystemdReadyAndStopping() throws {
        let daemon = try DaemonHarness()
        let notifySocket = daemon.directory.appendingPathComponent("notify.sock").path
        // A datagram listener standing in for systemd.
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        listener.arguments = [
            "python3", "-c",
            """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1]); s.settimeout(10)
            seen = []
            while not any(m.startswith("STOPPING=1") for m in seen):
                seen.append(s.recv(4096).decode()); print(seen[-1].replace("\\n", "|"), flush=True)
            """, notifySocket,
        ]
        // What the listener hears goes to a file the test polls: no fixed wait for the watchdog.
        let heard = daemon.directory.appendingPathComponent("notify.log")
        _ = FileManager.default.createFile(atPath: heard.path, contents: nil)
        listener.standardOutput = try FileHandle(forWritingTo: heard)
        try listener.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: notifySocket) { usleep(20_000) }
        setenv("NOTIFY_SOCKET", notifySocket, 1)
        setenv("WATCHDOG_USEC", "200000", 1)
        defer { unsetenv("NOTIFY_SOCKET"); unsetenv("WATCHDOG_USEC") }
        try daemon.start()
        func said(_ text: String) -> Bool { (try? String(contentsOf: heard, encoding: .utf8))?.contains(text) ?? false }
        for _ in 0..<500 where !said("WATCHDOG=1") { usleep(20_000) }
        XCTAssertEqual(daemon.stop(), 0)
        listener.waitUntilExit()
        let messages = (try? String(contentsOf: heard, encoding: .utf8)) ?? ""
        XCTAssertTrue(messages.contains("READY=1|STATUS=serving on \(daemon.socket)"), messages)
        XCTAssertTrue(messages.contains("WATCHDOG=1"), messages)
        XCTAssertTrue(messages.contains("STOPPING=1"), messages)
    }

    func testSystemdUnitsVerifyAndAreHardened() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else { throw XCTSkip("systemd-analyze is not installed") }
        let daemon = try DaemonHarness()
        // The service names the installed path; point it at the binary under test.
        let units = DaemonHarness.packageRoot.appendingPathComponent("systemd")
        let service = try String(contentsOf: units.appendingPathComponent("a11y-auditd.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/auditd", with: DaemonHarness.binaries.appendingPathComponent("auditd").path)
        let serviceCopy = daemon.directory.appendingPathComponent("a11y-auditd.service")
        try service.write(to: serviceCopy, atomically: true, encoding: .utf8)
        let socketCopy = daemon.directory.appendingPathComponent("a11y-auditd.socket")
        try FileManager.default.copyItem(at: units.appendingPathComponent("a11y-auditd.socket"), to: socketCopy)
        let verify = try daemon.run("/usr/bin/systemd-analyze", ["verify", socketCopy.path, serviceCopy.path])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let security = try daemon.run("/usr/bin/systemd-analyze", ["security", "--offline=true", serviceCopy.path])
        let line = (security.stdout + security.stderr).split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: " ").compactMap { Double($0) }.first ?? 99
        XCTAssertLessThanOrEqual(score, 1.0, String(line))
    }

    func testMissingDefaultRuleSetIsAServerError() throws {
        let daemon = try DaemonHarness()
        let rules = daemon.directory.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try #"{"name": "only-labels", "rules": {"label.missing": true}}"#.write(to: rules.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try daemon.start(rules: [rules.path])
        let response = try daemon.post(DaemonHarness.example("checkout.xml"))
        XCTAssertEqual(response.status, 500)
        XCTAssertEqual(((response.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String, "no-default-ruleset")
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml"), query: "?ruleset=only-labels").status, 200)
    }

    func testBrokenRuleSetAtStartIsAClearError() throws {
        let daemon = try DaemonHarness()
        let rules = daemon.directory.appendingPathComponent("rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        try #"{"name": "bad", "rules": {"target-size": {"parameters": {"minimum": "x"}}}}"#.write(to: rules.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let run = try daemon.run(
            DaemonHarness.binaries.appendingPathComponent("auditd").path,
            ["--socket", daemon.socket, "--journal", daemon.journal, "--rules", rules.path])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("bad.json"), run.stderr)
        XCTAssertTrue(run.stderr.contains("rules.target-size.parameters.minimum"), run.stderr)
        XCTAssertTrue(run.stderr.contains("expected a number"), run.stderr)
    }
}
