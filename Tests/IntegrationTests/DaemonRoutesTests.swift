import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Every route and status code of docs/API.md against the real daemon process.
final class DaemonRoutesTests: XCTestCase {
    func testRoutesThroughCurl() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let health = try daemon.run("curl", ["-s", "--unix-socket", daemon.socket, "http://localhost/v1/health"])
        XCTAssertEqual(health.status, 0)
        let healthJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(health.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(healthJSON["status"] as? String, "ok")
        XCTAssertEqual(healthJSON["version"] as? String, "0.1.0")

        let audit = try daemon.run(
            "curl",
            [
                "-s", "-w", "\n%{http_code}", "--unix-socket", daemon.socket, "-X", "POST",
                "--data-binary", "@" + DaemonHarness.examples.appendingPathComponent("checkout.xml").path,
                "http://localhost/v1/audits",
            ])
        let lines = audit.stdout.split(separator: "\n")
        XCTAssertEqual(lines.last, "200")
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)) as? [String: Any])
        XCTAssertEqual(report["ruleset"] as? String, "ios-default")
        XCTAssertEqual((report["snapshot"] as? [String: Any])?["elements"] as? Int, 16)
        XCTAssertFalse((report["findings"] as? [Any] ?? []).isEmpty)

        let rulesets = try daemon.run("curl", ["-s", "--unix-socket", daemon.socket, "http://localhost/v1/rulesets"])
        XCTAssertTrue(rulesets.stdout.contains("\"android-default\""))
        let findings = try daemon.run("curl", ["-s", "--unix-socket", daemon.socket, "http://localhost/v1/findings?since=0"])
        XCTAssertTrue(findings.stdout.hasPrefix("{\"seq\":1,"), findings.stdout)
        let metrics = try daemon.run("curl", ["-s", "--unix-socket", daemon.socket, "http://localhost/metrics"])
        XCTAssertTrue(metrics.stdout.contains("auditd_audits_total{status=\"200\"} 1"), metrics.stdout)
        XCTAssertTrue(metrics.stdout.contains("auditd_audit_duration_seconds_bucket{le=\"+Inf\"} 1"))
        let parseLine = metrics.stdout.split(separator: "\n").first { $0.hasPrefix("auditd_audit_phase_seconds_total{phase=\"parse\"} ") }
        let parseSeconds = parseLine.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        XCTAssertGreaterThan(parseSeconds ?? 0, 0, "the one audit's parse time: \(metrics.stdout)")
        XCTAssertTrue(metrics.stdout.contains("# TYPE auditd_open_connections gauge"))
        // The audit counts toward its app's latest build, once it is durable.
        let app = try XCTUnwrap((report["snapshot"] as? [String: Any])?["app"] as? String)
        let errors = (report["summary"] as? [String: Any])?["error"] as? Int ?? -1
        XCTAssertTrue(metrics.stdout.contains("auditd_app_findings{app=\"\(app)\","), metrics.stdout)
        XCTAssertTrue(
            metrics.stdout.split(separator: "\n").contains { $0.hasPrefix("auditd_app_findings{app=\"\(app)\",") && $0.hasSuffix("severity=\"error\"} \(errors)") },
            metrics.stdout)
        XCTAssertEqual(daemon.stop(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socket), "socket removed on exit")
    }

    /// A report of more than a megabyte of findings goes out and into the journal as the
    /// runs the audit wrote (``RenderedReport/pieces``): the answer is one valid report
    /// with every finding, and each finding's journal record holds its fields whole. With
    /// the findings past 100 kB spilled to disk while the snapshot is held
    /// (`--spill-findings-after`), the answer and the journal are the same, and /metrics
    /// counts the bytes spilled.
    func testALargeReportIsAnsweredAndJournalledWhole() throws {
        var xml = ##"<snapshot version="1" platform="ios" width="390" height="844" app="big" screen="Buttons"><element role="window" frame="0,0,390,844">"##
        for index in 0..<4_000 {
            xml += #"<element id="b\#(index)" role="button" frame="\#(index % 10 * 30),\#(index / 10 * 30),20,20"/>"#
        }
        xml += "</element></snapshot>"
        var answers: [[[String: Any]]] = []
        var journals: [[[String: Any]]] = []
        for options in [[], ["--spill-findings-after", "100000"]] {
            let daemon = try DaemonHarness()
            try daemon.start(options)
            let response = try daemon.post(Array(xml.utf8))
            XCTAssertEqual(response.status, 200, response.text.prefix(300).description)
            XCTAssertGreaterThan(response.body.count, 1 << 20, "large enough to be sent in pieces")
            XCTAssertEqual(response.headers["content-length"].flatMap(Int.init), response.body.count)
            let report = try XCTUnwrap(response.json as? [String: Any])
            let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
            let summary = try XCTUnwrap(report["summary"] as? [String: Any])
            XCTAssertEqual(findings.count, ["error", "warning", "notice"].reduce(0) { $0 + (summary[$1] as? Int ?? 0) })
            let records = daemon.journalRecords().filter { $0["type"] as? String == "finding" && $0["app"] as? String == "big" }
            XCTAssertEqual(records.count, findings.count)
            XCTAssertEqual(Set(records.compactMap { $0["fingerprint"] as? String }), Set(findings.compactMap { $0["fingerprint"] as? String }))
            let metrics = try daemon.request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").text
            let spilled = metrics.split(separator: "\n").first { $0.hasPrefix("auditd_findings_spilled_bytes_total ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") }
            if options.isEmpty {
                XCTAssertEqual(spilled, 0, "8 MiB by default: nothing spilled")
            } else {
                XCTAssertGreaterThan(spilled ?? 0, response.body.count / 2, "most of the findings spilled")
            }
            let spillFiles = try FileManager.default.contentsOfDirectory(atPath: (daemon.journal as NSString).deletingLastPathComponent).filter { $0.contains("spill") }
            XCTAssertEqual(spillFiles, [], "scratch files are unlinked as they are made")
            answers.append(findings)
            journals.append(records.map { $0.filter { !["seq", "time", "audit"].contains($0.key) } })
            XCTAssertEqual(daemon.stop(), 0)
        }
        XCTAssertEqual(answers[1] as NSArray, answers[0] as NSArray, "the same findings, spilled or held")
        XCTAssertEqual(journals[1] as NSArray, journals[0] as NSArray, "the same finding records, spilled or held")
    }

    func testStatusCodes() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--max-snapshot-bytes", "100000"])
        let checkout = DaemonHarness.example("checkout.xml")

        XCTAssertEqual(try daemon.post(checkout).status, 200)
        XCTAssertEqual(try daemon.request("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n").status, 404)
        let wrongMethod = try daemon.request("DELETE /v1/audits HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.headers["allow"], "POST")
        XCTAssertEqual(try daemon.post(checkout, query: "?ruleset=nope").status, 422)
        XCTAssertEqual(try daemon.post(checkout, query: "?ruleset=wcag22-aaa").status, 200)

        let malformed = try daemon.post(Array("<snapshot version=\"1\">\n  <element>\n</snapshot>".utf8))
        XCTAssertEqual(malformed.status, 400)
        let error = try XCTUnwrap((malformed.json as? [String: Any])?["error"] as? [String: Any])
        XCTAssertEqual(error["code"] as? String, "malformed-xml")
        XCTAssertEqual(error["line"] as? Int, 3)
        XCTAssertNotNil(error["column"] as? Int)

        XCTAssertEqual(try daemon.post([UInt8](repeating: 0x20, count: 200_000)).status, 413)
        XCTAssertEqual(try daemon.request("POST /v1/audits HTTP/1.1\r\nHost: x\r\n\r\n").status, 411)
        XCTAssertEqual(try daemon.request("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: x\r\n\r\n").status, 414)
        let bigHeader = "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 17000))\r\n\r\n"
        XCTAssertEqual(try daemon.request(bigHeader).status, 431)
        XCTAssertEqual(try daemon.request("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").status, 400)
        XCTAssertEqual(try daemon.request("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef").status, 400)
        XCTAssertEqual(try daemon.request("POST /v1/audits HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").status, 400)
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\n\r\n").status, 400, "HTTP/1.1 needs Host")
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/2.0\r\nHost: x\r\n\r\n").status, 505)

        // Chunked request bodies work.
        var chunked = Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        for piece in stride(from: 0, to: checkout.count, by: 1000) {
            let part = Array(checkout[piece..<min(piece + 1000, checkout.count)])
            chunked += Array((String(part.count, radix: 16) + "\r\n").utf8) + part + Array("\r\n".utf8)
        }
        chunked += Array("0\r\n\r\n".utf8)
        XCTAssertEqual(try daemon.request(String(decoding: chunked, as: UTF8.self)).status, 200)
        // Still serving after all that.
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testKeepAliveAndPipelining() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let fd = try daemon.connect()
        defer { close(fd) }
        let body = DaemonHarness.example("mailbox.xml")
        var batch = Array("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        batch += Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        batch += Array("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        batch += Array("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        daemon.send(fd, batch)
        var buffer: [UInt8] = []
        let statuses = (0..<4).compactMap { _ in daemon.readResponse(fd, buffer: &buffer)?.status }
        XCTAssertEqual(statuses, [200, 200, 404, 200], "responses in request order")
        // The connection is still usable.
        daemon.send(fd, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(daemon.readResponse(fd, buffer: &buffer)?.status, 200)
        daemon.send(fd, "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let last = daemon.readResponse(fd, buffer: &buffer)
        XCTAssertEqual(last?.headers["connection"], "close")
        XCTAssertNil(daemon.readResponse(fd, buffer: &buffer), "closed after Connection: close")
    }

    /// `Server-Timing` on an audit's answer: its phases in order, the body's slow arrival
    /// counted as receiving, the rules and their findings together as long as the report's
    /// own `duration_ms`.
    func testAuditAnswerTellsWhereItsTimeWent() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let fd = try daemon.connect()
        defer { close(fd) }
        let body = DaemonHarness.example("checkout.xml")
        let sent = Date()
        daemon.send(fd, Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body[..<100])
        usleep(300_000)
        daemon.send(fd, Array(body[100...]))
        var buffer: [UInt8] = []
        let answer = try XCTUnwrap(daemon.readResponse(fd, buffer: &buffer))
        let wall = Date().timeIntervalSince(sent) * 1000
        XCTAssertEqual(answer.status, 200)
        let header = try XCTUnwrap(answer.headers["server-timing"])
        var phases: [(String, Double)] = []
        for entry in header.components(separatedBy: ", ") {
            let parts = entry.components(separatedBy: ";dur=")
            XCTAssertEqual(parts.count, 2, header)
            phases.append((parts[0], try XCTUnwrap(Double(parts.last ?? ""), header)))
        }
        XCTAssertEqual(phases.map(\.0), ["receive", "queue", "parse", "rules", "findings", "render", "journal"])
        XCTAssertTrue(phases.allSatisfy { $0.1 >= 0 }, header)
        XCTAssertGreaterThanOrEqual(phases[0].1, 250, "the body's second part came 300 ms after its head: \(header)")
        XCTAssertLessThanOrEqual(phases.reduce(0) { $0 + $1.1 }, wall + 1, "the phases fit in the request's time: \(header)")
        let report = try XCTUnwrap(answer.json as? [String: Any])
        let duration = try XCTUnwrap(report["duration_ms"] as? Double)
        XCTAssertEqual(phases[3].1 + phases[4].1, duration, accuracy: 0.0021, "rules;dur + findings;dur is the report's duration_ms: \(header)")
        XCTAssertGreaterThan(phases[4].1, 0, "checkout.xml has findings, and writing them takes time: \(header)")

        // An answer without an audit (the snapshot did not parse) has none.
        let malformed = try daemon.post(Array("<snapshot version=\"1\">\n<element>".utf8))
        XCTAssertEqual(malformed.status, 400)
        XCTAssertNil(malformed.headers["server-timing"])
    }

    func testExpectContinue() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let fd = try daemon.connect()
        defer { close(fd) }
        let body = DaemonHarness.example("checkout.xml")
        daemon.send(fd, "POST /v1/audits HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n")
        var interim = [UInt8](repeating: 0, count: 25)
        let count = interim.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_WAITALL)) }
        XCTAssertEqual(String(decoding: interim[0..<max(0, count)], as: UTF8.self), "HTTP/1.1 100 Continue\r\n\r\n")
        daemon.send(fd, body)
        var buffer: [UInt8] = []
        XCTAssertEqual(daemon.readResponse(fd, buffer: &buffer)?.status, 200)
    }

    func testSlowClientIsCutOffAndOthersAreServed() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--read-timeout", "0.5"])
        let slow = try daemon.connect()
        defer { close(slow) }
        daemon.send(slow, "POST /v1/audits HTTP/1.1\r\nHost: x\r\n")
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        var buffer: [UInt8] = []
        let started = Date()
        let response = daemon.readResponse(slow, buffer: &buffer)
        XCTAssertEqual(response?.status, 408)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        // A slow body is cut off too.
        let slowBody = try daemon.connect()
        defer { close(slowBody) }
        daemon.send(slowBody, "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n<snap")
        var other: [UInt8] = []
        XCTAssertEqual(daemon.readResponse(slowBody, buffer: &other)?.status, 408)
    }

    func testConcurrentClients() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let bodies = ["checkout.xml", "mailbox.xml", "settings.xml", "onboarding.xml"].map(DaemonHarness.example)
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: 32) { client in
            for round in 0..<5 {
                let status = (try? daemon.post(bodies[(client + round) % bodies.count]).status) ?? -1
                statuses.add(status)
            }
        }
        XCTAssertEqual(statuses.all.count, 160)
        XCTAssertEqual(Set(statuses.all), [200], "\(statuses.all.filter { $0 != 200 })")
        let audits = daemon.journalRecords().filter { $0["type"] as? String == "audit" }
        XCTAssertEqual(audits.count, 160)
        let seqs = daemon.journalRecords().compactMap { $0["seq"] as? Int }
        XCTAssertEqual(seqs, Array(1...seqs.count), "seq increases by one per record")
    }

    func testMaxConnectionsRefusesCleanly() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--max-connections", "4"])
        var open: [Int32] = []
        for _ in 0..<4 {
            let fd = try daemon.connect()
            daemon.send(fd, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            var buffer: [UInt8] = []
            XCTAssertEqual(daemon.readResponse(fd, buffer: &buffer)?.status, 200)
            open.append(fd)
        }
        let extra = try daemon.connect()
        daemon.send(extra, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        var buffer: [UInt8] = []
        let refused = daemon.readResponse(extra, buffer: &buffer)
        XCTAssertEqual(refused?.status, 503)
        XCTAssertEqual(refused?.headers["retry-after"], "1")
        close(extra)
        // The others are unaffected.
        daemon.send(open[0], "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        var again: [UInt8] = []
        XCTAssertEqual(daemon.readResponse(open[0], buffer: &again)?.status, 200)
        open.forEach { close($0) }
    }
}

/// Thread-safe collection of statuses.
final class Statuses: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func add(_ value: Int) { lock.lock(); values.append(value); lock.unlock() }
    var all: [Int] { lock.lock(); defer { lock.unlock() }; return values }
}
