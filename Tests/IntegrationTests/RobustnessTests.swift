import AuditClient
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 16 against the real process: clients that churn, vanish, stall or never read.
final class ConnectionChurnTests: XCTestCase {
    /// A fresh connection per audit (`Connection: close`), as CI scripts do, from four
    /// threads; some clients vanish mid-request and some keep their connection. Every
    /// request that was sent whole is answered, and journalled once.
    func testEveryChurningRequestIsAnswered() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let body = DaemonHarness.example("checkout.xml")
        let socket = daemon.socket
        let perThread = 150
        let unanswered = Counter(), answered = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var keepAlive: Int32 = -1
            var keepAliveBuffer: [UInt8] = []
            for sent in 0..<perThread {
                let head = "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n"
                switch (thread + sent) % 4 {
                case 3:
                    // Vanishes halfway through its body: never answered, never journalled.
                    guard let fd = try? UnixSocket.connect(socket, receiveTimeout: 5) else { unanswered.add(); continue }
                    try? UnixSocket.sendAll(fd, Array((head + "\r\n").utf8) + body.prefix(body.count / 2))
                    close(fd)
                case 2:
                    // Keep-alive, reused across iterations.
                    if keepAlive < 0 { keepAlive = (try? UnixSocket.connect(socket, receiveTimeout: 5)) ?? -1 }
                    try? UnixSocket.sendAll(keepAlive, Array((head + "\r\n").utf8) + body)
                    if daemon.readResponse(keepAlive, buffer: &keepAliveBuffer)?.status == 200 {
                        answered.add()
                    } else {
                        unanswered.add()
                        close(keepAlive)
                        keepAlive = -1
                        keepAliveBuffer = []
                    }
                default:
                    guard let fd = try? UnixSocket.connect(socket, receiveTimeout: 5) else { unanswered.add(); continue }
                    try? UnixSocket.sendAll(fd, Array((head + "Connection: close\r\n\r\n").utf8) + body)
                    var buffer: [UInt8] = []
                    if daemon.readResponse(fd, buffer: &buffer)?.status == 200 { answered.add() } else { unanswered.add() }
                    close(fd)
                }
            }
            if keepAlive >= 0 { close(keepAlive) }
        }
        XCTAssertEqual(unanswered.value, 0, "requests sent whole but never answered")
        XCTAssertEqual(answered.value, 4 * perThread * 3 / 4)
        XCTAssertEqual(daemon.stop(), 0)
        let audits = daemon.journalRecords().filter { $0["type"] as? String == "audit" }
        XCTAssertEqual(audits.count, answered.value, "one journal record per answered audit")
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ amount: Int = 1) { lock.lock(); count += amount; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

extension DaemonHarness {
    /// Resident memory of the daemon in KiB.
    var residentKiB: Int {
        guard let pid = process?.processIdentifier,
            let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The value of one metric line, e.g. `auditd_followers_dropped_total`.
    func metric(_ name: String) -> Double? {
        guard let text = try? request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").text else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Polls `condition` every 20 ms for at most `seconds`.
    func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// A rule-set directory holding the shipped sets and `extra` files.
    func rulesDirectory(_ extra: [String: String]) throws -> URL {
        let rules = directory.appendingPathComponent("rules-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: DaemonHarness.rules.path) {
            try FileManager.default.copyItem(at: DaemonHarness.rules.appendingPathComponent(name), to: rules.appendingPathComponent(name))
        }
        for (name, text) in extra { try text.write(to: rules.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return rules
    }
}

/// Costs a client can cause are bounded: unread answers, lagging followers, the journal read back.
final class BoundedMemoryTests: XCTestCase {
    /// Pipelined requests whose answers are never read: the daemon stops reading the
    /// connection (the client's sends block) instead of keeping every answer.
    func testUnreadPipelinedAnswersStopTheReading() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--max-unsent-bytes", "65536"])
        let before = daemon.residentKiB
        let fd = try daemon.connect()
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let body = DaemonHarness.example("checkout.xml")
        let request = Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        var sent = 0, offset = 0
        var blockedSince: Date?
        while sent < 20_000 {
            let count = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                blockedSince = nil
                offset += count
                if offset == request.count { sent += 1; offset = 0 }
            } else {
                // Blocked for a whole second: the daemon has stopped reading.
                if let since = blockedSince, Date().timeIntervalSince(since) > 1 { break }
                if blockedSince == nil { blockedSince = Date() }
                usleep(5_000)
            }
        }
        XCTAssertLessThan(sent, 2_000, "the daemon kept reading requests whose answers were not read")
        XCTAssertLessThan(daemon.residentKiB - before, 60_000, "memory grew by \(daemon.residentKiB - before) KiB")
        // Every request taken is answered, in order, once the client reads.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if offset > 0 { try UnixSocket.sendAll(fd, Array(request[offset...])); sent += 1 }
        var buffer: [UInt8] = []
        var answered = 0
        while answered < sent, let response = daemon.readResponse(fd, buffer: &buffer) {
            XCTAssertEqual(response.status, 200)
            answered += 1
        }
        XCTAssertEqual(answered, sent)
    }

    /// A follower that never reads is dropped once it lags past the limit; audits go on.
    func testFollowerThatNeverReadsIsDropped() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--follow-lag-bytes", "65536"])
        let follower = try daemon.connect()
        defer { close(follower) }
        var small: Int32 = 4096
        setsockopt(follower, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        daemon.send(follower, "GET /v1/findings?follow=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let before = daemon.residentKiB
        let body = DaemonHarness.example("checkout.xml")
        for _ in 0..<300 { XCTAssertEqual(try daemon.post(body).status, 200) }
        XCTAssertTrue(daemon.waitUntil { (daemon.metric("auditd_followers_dropped_total") ?? 0) >= 1 }, daemon.log)
        XCTAssertLessThan(daemon.residentKiB - before, 60_000)
        XCTAssertTrue(daemon.log.contains("dropped a follower that fell behind"))
    }

    /// Followers that never read are held to the memory budget like any other answer: their
    /// chunks were forced past `--memory-limit` (164 MiB reserved against 128), and every
    /// other client got 503 until they timed out. Now the follower whose chunk does not fit
    /// is closed; audits of other clients go on answered 200 and the reservation stays
    /// under the limit.
    func testFollowersThatNeverReadStayWithinTheMemoryBudget() throws {
        let daemon = try DaemonHarness()
        let limit = 24 << 20
        try daemon.start(["--memory-limit", String(limit), "--max-snapshot-bytes", String(4 << 20), "--follow-lag-bytes", String(16 << 20)])
        var followers: [Int32] = []
        defer { for fd in followers { close(fd) } }
        for _ in 0..<6 {
            let fd = try daemon.connect()
            var small: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            daemon.send(fd, "GET /v1/findings?follow=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            followers.append(fd)
        }
        // Each audit journals about 20 KB that every follower is sent.
        let body = DaemonHarness.example("checkout.xml")
        var peak = 0.0
        for round in 0..<800 {
            let response = try daemon.post(body)
            XCTAssertEqual(response.status, 200, "audit \(round): \(response.text)")
            if round % 50 == 0 { peak = max(peak, daemon.metric("auditd_memory_reserved_bytes") ?? 0) }
            if response.status != 200 { break }
        }
        XCTAssertLessThanOrEqual(peak, Double(limit), "the reservation stays under --memory-limit")
        XCTAssertTrue(daemon.waitUntil { (daemon.metric("auditd_followers_dropped_total") ?? 0) >= 1 }, daemon.log)
        XCTAssertEqual(daemon.metric("auditd_memory_refusals_total") ?? -1, 0, "no other client was refused for the followers' sake")
    }

    /// `GET /v1/findings` on a large journal is read from the files as the client takes
    /// it: eight pipelined requests on 10 MB stay far below 8 × 10 MB, and each gets it all.
    func testFindingsAreStreamedFromTheFiles() throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: (daemon.journal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let padding = String(repeating: "x", count: 4000)
        var journal = ""
        let lines = 2_500
        for seq in 1...lines { journal += #"{"seq":\#(seq),"time":"2026-01-01T00:00:00Z","type":"finding","pad":"\#(padding)"}"# + "\n" }
        try journal.write(toFile: daemon.journal, atomically: false, encoding: .utf8)
        try daemon.start()
        let before = daemon.residentKiB
        let fd = try daemon.connect()
        defer { close(fd) }
        daemon.send(fd, String(repeating: "GET /v1/findings?since=0 HTTP/1.1\r\nHost: x\r\n\r\n", count: 8))
        // The stream has begun when its first bytes can be read (no fixed wait).
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 10_000), 1, "the daemon began no answer within 10 s")
        var peak = 0
        var buffer: [UInt8] = []
        for request in 0..<8 {
            let response = try XCTUnwrap(daemon.readResponse(fd, buffer: &buffer), "response \(request)")
            peak = max(peak, daemon.residentKiB)
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.headers["transfer-encoding"], "chunked")
            XCTAssertEqual(response.body.filter { $0 == 0x0A }.count, lines)
        }
        XCTAssertLessThan(peak - before, 40_000, "the daemon held \(peak - before) KiB for 8 × 10 MB")
        // since= still selects.
        let tail = try daemon.request("GET /v1/findings?since=2490 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(tail.body.filter { $0 == 0x0A }.count, 10)
    }
}

/// Nothing acknowledged is lost, nothing corrupted: large records, kill -9, outside truncation.
final class JournalDurabilityTests: XCTestCase {
    /// A snapshot whose one finding-bearing element (a button too small) has `id`: a long
    /// id makes long finding records (an app name is held to 256 bytes).
    func snapshot(id: String) -> [UInt8] {
        Array(#"<snapshot version="1" platform="ios" app="shop" width="390" height="844"><element id="\#(id)" role="button" label="Go" frame="0,0,10,10"/></snapshot>"#.utf8)
    }

    func testRecordsOverOneMiBSurviveRestartAndTornLines() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let big = String(repeating: "a", count: 1_500_000)
        for _ in 0..<3 { XCTAssertEqual(try daemon.post(snapshot(id: big)).status, 200) }
        XCTAssertEqual(daemon.stop(), 0)
        // A torn last line over 1 MiB, as a crash mid-write leaves it.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: daemon.journal))
        handle.seekToEndOfFile()
        handle.write(Data(("{\"seq\":999,\"time\":\"x\",\"type\":\"audit\",\"app\":\"" + big).utf8))
        try handle.close()
        try daemon.start()
        XCTAssertEqual(try daemon.post(snapshot(id: "after")).status, 200)
        XCTAssertEqual(daemon.stop(), 0)
        let seqs = daemon.journalRecords().compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs, Array(1...seqs.count), "seqs continue after restart, none repeated")
        XCTAssertTrue(daemon.log.contains("truncated a torn last line"), daemon.log)
    }

    /// kill -9 while large records are written: every audit answered 200 is in the journal.
    func testKillNineWithLargeRecordsLosesNothingAcknowledged() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let body = snapshot(id: String(repeating: "k", count: 1_200_000))
        let acknowledged = IDs()
        let stop = Flag()
        let socket = daemon.socket
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let client = UnixHTTPClient(socketPath: socket)
                while !stop.isSet {
                    guard let response = try? client.request("POST", "/v1/audits", body: body), response.status == 200,
                        let report = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                        let id = report["audit"] as? String
                    else { continue }
                    acknowledged.add(id)
                }
            }
        }
        XCTAssertTrue(daemon.waitUntil(seconds: 30) { acknowledged.all.count >= 20 })
        _ = daemon.stop(signal: SIGKILL)
        stop.set()
        group.wait()
        try daemon.start()
        XCTAssertEqual(daemon.stop(), 0)
        let journalled = Set(daemon.journalRecords().filter { $0["type"] as? String == "audit" }.compactMap { $0["audit"] as? String })
        XCTAssertTrue(acknowledged.all.isSubset(of: journalled), "lost: \(acknowledged.all.subtracting(journalled).count) of \(acknowledged.all.count)")
    }

    /// `: > journal` (as logrotate copytruncate does): the next records start at the real
    /// end, no NUL bytes, seqs keep increasing.
    func testOutsideTruncationIsNoticed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        for _ in 0..<5 { XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200) }
        let lastBefore = daemon.journalRecords().compactMap { $0["seq"] as? Int }.max() ?? 0
        truncate(daemon.journal, 0)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: daemon.journal))
        XCTAssertFalse(bytes.contains(0), "NUL bytes in the journal")
        let seqs = daemon.journalRecords().compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs.first, lastBefore + 1)
        XCTAssertTrue(daemon.log.contains("changed size outside auditd"), daemon.log)
    }
}

/// Operator and client input that used to trap, hang or silently change results.
final class HostileOptionsTests: XCTestCase {
    func testOutOfRangeOptionsAreRefusedWithAMessage() throws {
        let daemon = try DaemonHarness()
        for (option, value) in [
            ("--allow-uid", "4294967296"), ("--allow-gid", "99999999999999999999"), ("--drain-timeout", "1e300"),
            ("--read-timeout", "inf"), ("--android-density", "nan"), ("--audit-budget", "-1"),
        ] {
            let run = try daemon.run(
                DaemonHarness.binaries.appendingPathComponent("auditd").path,
                ["--socket", daemon.socket, "--journal", daemon.journal, option, value])
            XCTAssertEqual(run.status, 2, "\(option) \(value): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(option), run.stderr)
        }
    }

    func testAFIFOAsTheJournalIsRefusedAtOnce() throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: (daemon.journal as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(daemon.journal, 0o600), 0)
        let process = try daemon.start(expectFailure: true)
        XCTAssertEqual(DaemonHarness.wait(process, seconds: 10), 1, "a FIFO journal must not hang the start")
        XCTAssertTrue(daemon.log.contains("FIFO"), daemon.log)
    }

    func testDensityMustBeARealDensity() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let dump = DaemonHarness.example("android-login.xml")
        for value in ["nan", "inf", "-1", "1e-300", "0", "abc"] {
            let response = try daemon.post(dump, query: "?density=\(value)")
            XCTAssertEqual(response.status, 400, value)
            XCTAssertEqual(((response.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String, "bad-density")
        }
        XCTAssertEqual(try daemon.post(dump, query: "?density=2.625").status, 200)
    }

    /// Deep XPath nesting and endless extends chains are refused with the file and key;
    /// a reload that meets them keeps the daemon and its old sets.
    func testRuleSetsThatOverflowedTheStackAreRefused() throws {
        let daemon = try DaemonHarness()
        let nested = String(repeating: "(", count: 2_000) + "1" + String(repeating: ")", count: 2_000)
        let bad = try daemon.rulesDirectory(["deep.json": #"{"name": "deep", "custom": [{"id": "custom.deep", "xpath": "\#(nested)"}]}"#])
        let refused = try daemon.run(
            DaemonHarness.binaries.appendingPathComponent("auditd").path,
            ["--socket", daemon.socket, "--journal", daemon.journal, "--rules", bad.path])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("nests brackets and parentheses"), refused.stderr)

        let rules = try daemon.rulesDirectory([:])
        try daemon.start(rules: [rules.path])
        var chain: [String: String] = [:]
        for index in 0..<20_000 { chain["c\(index).json"] = #"{"name": "c\#(index)", "extends": "\#(index == 0 ? "wcag22-aa" : "c\(index - 1)")"}"# }
        for (name, text) in chain { try text.write(to: rules.appendingPathComponent(name), atomically: false, encoding: .utf8) }
        let pid = try XCTUnwrap(daemon.process?.processIdentifier)
        kill(pid, SIGHUP)
        XCTAssertTrue(daemon.waitUntil(seconds: 30) { daemon.log.contains("rule-set reload failed") }, daemon.log)
        XCTAssertTrue(daemon.log.contains("extends chain is deeper than"), daemon.log)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200, "still serving the old sets")
    }
}

/// Work is bounded in time: XPath steps, the audit's budget, clients that left.
final class AuditBudgetTests: XCTestCase {
    func bigScreen(_ elements: Int) throws -> [UInt8] {
        let run = try DaemonHarness().run(
            DaemonHarness.binaries.appendingPathComponent("auditbench").path,
            ["generate", String(elements), "--seed", "16"])
        return Array(run.stdout.utf8)
    }

    /// The daemon keeps a snapshot's bytes for the rules only when a custom XPath rule will
    /// read them: a set with one finds what it selects, a set without answers the same.
    func testCustomXPathRulesReadTheSnapshotOverTheSocket() throws {
        let daemon = try DaemonHarness()
        let rules = try daemon.rulesDirectory([
            "xp.json":
                #"{"name": "xp", "extends": "ios-default", "custom": [{"id": "custom.buttons", "xpath": "//element[@role = 'button']", "message": "a button"}]}"#
        ])
        try daemon.start(rules: [rules.path])
        let body = DaemonHarness.example("checkout.xml")
        let buttons = String(decoding: body, as: UTF8.self).components(separatedBy: #"role="button""#).count - 1
        XCTAssertGreaterThan(buttons, 0)
        let findings = { (query: String) throws -> [[String: Any]] in
            let response = try daemon.post(body, query: query)
            XCTAssertEqual(response.status, 200)
            return ((response.json as? [String: Any])?["findings"] as? [[String: Any]]) ?? []
        }
        let custom = try findings("?ruleset=xp")
        XCTAssertEqual(custom.filter { $0["rule"] as? String == "custom.buttons" && $0["result"] as? String == "matched" }.count, buttons)
        let plain = try findings("?ruleset=ios-default")
        XCTAssertEqual(custom.count - buttons, plain.count)
    }

    func testQuadraticXPathIsStoppedWithAReason() throws {
        let daemon = try DaemonHarness()
        let rules = try daemon.rulesDirectory([
            "dup.json": #"{"name": "dup", "extends": "ios-default", "custom": [{"id": "custom.dup", "xpath": "//element[@label = preceding::element/@label]"}]}"#
        ])
        try daemon.start(rules: [rules.path])
        let body = try bigScreen(8_000)
        let started = Date()
        let response = try daemon.post(body, query: "?ruleset=dup")
        XCTAssertEqual(response.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        let incomplete = ((response.json as? [String: Any])?["incomplete"] as? [[String: Any]]) ?? []
        let reason = incomplete.first { $0["rule"] as? String == "custom.dup" }?["reason"] as? String
        XCTAssertTrue(reason?.contains("evaluation steps") == true || reason?.contains("time budget") == true, "\(incomplete)")
    }

    func testBudgetReportsTheRulesItLeftOut() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--audit-budget", "0.01"])
        let response = try daemon.post(try bigScreen(60_000))
        XCTAssertEqual(response.status, 200)
        let incomplete = ((response.json as? [String: Any])?["incomplete"] as? [[String: Any]]) ?? []
        XCTAssertTrue(incomplete.contains { ($0["reason"] as? String)?.contains("time budget (0.01 s) ran out") == true }, "\(incomplete.prefix(3))")
        XCTAssertGreaterThanOrEqual(daemon.metric("auditd_audit_budget_exceeded_total") ?? 0, 1)
    }

    /// A client that hangs up stops its audit: the others are served, nothing is journalled for it.
    func testAuditsOfClientsThatLeftStop() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--workers", "1"])
        let big = try bigScreen(60_000)
        let request = Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(big.count)\r\n\r\n".utf8) + big
        // One audit running, one waiting for the only worker; then both clients hang up.
        let running = try daemon.connect()
        daemon.send(running, request)
        XCTAssertTrue(daemon.waitUntil { (daemon.metric("auditd_audits_in_flight") ?? 0) >= 1 })
        let waiting = try daemon.connect()
        daemon.send(waiting, request)
        XCTAssertTrue(daemon.waitUntil { (daemon.metric("auditd_queue_depth") ?? 0) >= 1 })
        close(running)
        close(waiting)
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200)
        XCTAssertTrue(
            daemon.waitUntil { (daemon.metric("auditd_audits_abandoned_total") ?? 0) >= 2 },
            "abandoned: \(daemon.metric("auditd_audits_abandoned_total") ?? -1)")
        XCTAssertEqual(daemon.stop(), 0)
        let audits = daemon.journalRecords().filter { $0["type"] as? String == "audit" }
        XCTAssertEqual(audits.count, 1, "audits of clients that left are not journalled")
    }
}

/// Human output quotes snapshots: nothing in them can forge a line or a workflow command.
final class ForgedOutputTests: XCTestCase {
    func testControlCharactersAreEscapedInEveryHumanOutput() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let forged = "x&#10;Examples/fake.xml:1:1: error: [forged.rule] fake&#13;&#10;::error file=a::b&#x202E;"
        let xml =
            #"<snapshot version="1" platform="ios" app="shop" width="390" height="844"><element id="\#(forged)" role="button" frame="0,0,10,10"/></snapshot>"#
        let file = daemon.directory.appendingPathComponent("forged.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["audit", file.path], ["inspect", file.path]] {
            let run = try daemon.auditctl(arguments)
            for line in (run.stdout + run.stderr).split(separator: "\n") {
                XCTAssertFalse(line.hasPrefix("Examples/fake.xml"), "\(arguments[0]): \(line)")
                XCTAssertFalse(line.hasPrefix("::"), "\(arguments[0]): \(line)")
                XCTAssertFalse(line.contains("\r") || line.contains("\u{202E}"), "\(arguments[0]): \(line)")
            }
            XCTAssertTrue(run.stdout.contains(#"\nExamples/fake.xml"#), "\(arguments[0]): \(run.stdout)")
        }
        // An identity with control characters is refused, and the refusal forges nothing.
        let app = daemon.directory.appendingPathComponent("app.xml")
        try #"<snapshot version="1" platform="ios" app="shop&#10;::warning::x" width="390" height="844"/>"#.write(to: app, atomically: true, encoding: .utf8)
        let refused = try daemon.auditctl(["audit", app.path])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue((refused.stdout + refused.stderr).contains("bad-identity"), refused.stdout + refused.stderr)
        for line in (refused.stdout + refused.stderr).split(separator: "\n") { XCTAssertFalse(line.hasPrefix("::"), "audit: \(line)") }
        // validate quotes unreadable values and refused versions: escaped too.
        let values = daemon.directory.appendingPathComponent("values.xml")
        try #"<snapshot version="1" platform="ios"><element id="a" role="button" opacity="x&#10;::error file=a::forged" frame="0,0,1,1"/></snapshot>"#
            .write(to: values, atomically: true, encoding: .utf8)
        let version = daemon.directory.appendingPathComponent("version.xml")
        try #"<snapshot version="2&#10;::error ::forged"></snapshot>"#.write(to: version, atomically: true, encoding: .utf8)
        for file in [values, version] {
            let run = try daemon.auditctl(["validate", file.path])
            for line in (run.stdout + run.stderr).split(separator: "\n") {
                XCTAssertFalse(line.hasPrefix("::"), "validate: \(line)")
            }
            XCTAssertTrue(run.stdout.contains(#"\n::error"#), "validate: \(run.stdout)")
        }
    }

    func testScriptEndingTextCannotBreakTheHTMLReport() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let xml =
            #"<snapshot version="1" platform="ios" width="390" height="844"><element id="&lt;!--&lt;script&gt;" role="button" frame="0,0,10,10"/><element id="&lt;/script&gt;&lt;b&gt;" role="button" frame="20,0,10,10"/></snapshot>"#
        let file = daemon.directory.appendingPathComponent("script.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let run = try daemon.auditctl(["audit", "--format", "html", file.path])
        let script = try XCTUnwrap(run.stdout.components(separatedBy: "<script>").last?.components(separatedBy: "</script>").first)
        XCTAssertFalse(script.contains("<!--"), "raw <!-- inside the script")
        XCTAssertFalse(script.contains("<script"), "raw <script inside the script")
        // The page's script carries no data of the snapshot: the ids are in the markup, escaped.
        XCTAssertFalse(script.contains("&lt;") || script.contains("</b"), script.prefix(300).description)
        XCTAssertEqual(run.stdout.components(separatedBy: "<script>").count, 2, "one script, the report's own")
        XCTAssertTrue(run.stdout.contains("&lt;!--&lt;script&gt;"), "the id is shown, escaped")
        XCTAssertFalse(run.stdout.contains("<b>"), "no markup from the snapshot")
    }
}

/// auditctl against a daemon that takes the connection and never answers.
final class ClientTimeoutTests: XCTestCase {
    func testAuditctlGivesUpOnAStuckDaemon() throws {
        let daemon = try DaemonHarness()
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        let bound = try UnixSocket.address(daemon.socket).withSockaddr { bind(listener, $0, $1) }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 16), 0)
        let started = Date()
        let run = try daemon.auditctl(["audit", "--timeout", "1", DaemonHarness.examples.appendingPathComponent("checkout.xml").path])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("did not answer within 1 s"), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        let status = try daemon.auditctl(["status"], environment: ["AUDITD_TIMEOUT": "0.5"])
        XCTAssertEqual(status.status, 2, status.stderr)
        let bad = try daemon.auditctl(["status", "--timeout", "forever"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--timeout"), bad.stderr)
    }
}

/// Peers that may not use the daemon cost it nothing: refused at accept, before their request.
final class ForbiddenPeerTests: XCTestCase {
    func testHeldConnectionsOfAnotherUserDoNotLockOthersOut() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        else {
            throw XCTSkip("needs root, setpriv and /usr/bin/python3")
        }
        let daemon = try DaemonHarness()
        try daemon.start(["--socket-mode", "0666", "--max-connections", "10"])
        // 30 connections of uid 65534, each sending half of a large head and holding on.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        holder.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
            """
            import socket, sys, time
            held = []
            for _ in range(30):
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
                s.sendall(b"POST /v1/audits HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 30000000\\r\\n\\r\\n" + b"x" * 60000)
                held.append(s)
            print("held", flush=True)
            time.sleep(5)
            """, daemon.socket,
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        let held = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        XCTAssertTrue(held.contains("held"), "the other user's client could not connect 30 times: \(held)")
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200, "root is not locked out")
        XCTAssertGreaterThanOrEqual(daemon.metric("auditd_forbidden_total") ?? 0, 30)
        XCTAssertLessThan(daemon.metric("auditd_open_connections") ?? 99, 5, "refused peers hold no connection slot")
    }
}
