import AuditClient
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// Issue 26's costs, each against the real daemon over its socket: the memory budget
/// across bodies, screenshots and unsent answers; the screenshot decode inside the
/// audit's budget; finding records that do not repeat a huge identity; findings streams
/// that end as HTTP says; images sent where the XML belongs.
final class HostileCostTests: XCTestCase {
    static let images = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/images")

    func code(_ response: DaemonHarness.Response) -> String? {
        ((response.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
    }

    func postForm(_ daemon: DaemonHarness, _ parts: [(String, String, [UInt8])]) throws -> DaemonHarness.Response {
        let form = MultipartBody(parts: parts.map { .init(name: $0.0, filename: $0.0, contentType: $0.1, bytes: $0.2) })
        return try daemon.request(
            "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Type: \(form.contentType)\r\nContent-Length: \(form.bytes.count)\r\n\r\n",
            body: form.bytes)
    }

    /// A 1000 × 1000 pt screen at 4 px per pt, for the 4000 × 4000 progressive JPEG.
    var squareScreen: [UInt8] {
        Array(
            #"""
            <snapshot version="1" platform="ios" app="Big" screen="Square" width="1000" height="1000" scale="4">
              <element id="title" role="text" text="Welcome" frame="20,20,400,40" font-size="17"/>
              <element id="go" role="button" label="Go" frame="20,80,200,60"/>
            </snapshot>
            """#.utf8)
    }

    /// Bodies are reserved from their Content-Length before their bytes arrive: two
    /// stalled 30 MiB uploads fill a 64 MiB budget, and the third is refused at once
    /// with 503 memory-exhausted; once they go, audits are served again.
    func testStalledBodiesCannotHoldMoreThanTheMemoryLimit() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--memory-limit", String(64 << 20), "--max-snapshot-bytes", String(32 << 20)])
        let head = "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(30 << 20)\r\n\r\n<snapshot"
        var stalled: [Int32] = []
        for _ in 0..<2 {
            let fd = try daemon.connect()
            daemon.send(fd, head)
            stalled.append(fd)
        }
        XCTAssertTrue(daemon.waitUntil { (daemon.metric("auditd_memory_reserved_bytes") ?? 0) >= Double(60 << 20) }, daemon.log)
        let third = try daemon.connect()
        defer { close(third) }
        daemon.send(third, head)
        var buffer: [UInt8] = []
        let refused = try XCTUnwrap(daemon.readResponse(third, buffer: &buffer), "the third upload is answered before its body is sent")
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(code(refused), "memory-exhausted")
        XCTAssertEqual(refused.headers["retry-after"], "1")
        XCTAssertTrue(refused.text.contains("--memory-limit"), refused.text)
        XCTAssertEqual(daemon.metric("auditd_memory_refusals_total"), 1)
        for fd in stalled { close(fd) }
        XCTAssertTrue(
            daemon.waitUntil { (daemon.metric("auditd_memory_reserved_bytes") ?? .infinity) < Double(1 << 20) },
            "the stalled bodies' memory is given back when their clients leave")
        XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200)
    }

    /// A screenshot's decode is reserved from its header: one that would pass the
    /// budget is refused with 503 before a pixel is decoded.
    func testScreenshotsAreReservedFromTheirHeader() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--memory-limit", String(100 << 20), "--max-snapshot-bytes", String(1 << 20)])
        let jpeg = Array(try Data(contentsOf: Self.images.appendingPathComponent("progressive-96-scans-4000.jpg")))
        let response = try postForm(daemon, [("snapshot", "application/xml", squareScreen), ("screenshot", "image/jpeg", jpeg)])
        XCTAssertEqual(response.status, 503, response.text)
        XCTAssertEqual(code(response), "memory-exhausted")
        XCTAssertTrue(daemon.waitUntil { (daemon.metric("auditd_memory_reserved_bytes") ?? .infinity) < Double(1 << 20) })
        // A screenshot that does not fit its snapshot is refused from the header too.
        let tall = Array(#"<snapshot version="1" platform="ios" width="390" height="844" scale="3"><element id="a" role="button" label="Go" frame="0,0,44,44"/></snapshot>"#.utf8)
        let mismatch = try postForm(daemon, [("snapshot", "application/xml", tall), ("screenshot", "image/jpeg", jpeg)])
        XCTAssertEqual(mismatch.status, 422)
        XCTAssertEqual(code(mismatch), "screenshot-mismatch")
    }

    /// The decode runs inside the audit's budget: with 20 ms for a 0.3 s decode, the
    /// answer comes with every rule incomplete for the budget, and no colour judged.
    func testTheDecodeStopsWhenTheBudgetRunsOut() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--audit-budget", "0.02"])
        let jpeg = Array(try Data(contentsOf: Self.images.appendingPathComponent("progressive-96-scans-4000.jpg")))
        let response = try postForm(daemon, [("snapshot", "application/xml", squareScreen), ("screenshot", "image/jpeg", jpeg)])
        XCTAssertEqual(response.status, 200, response.text)
        let report = try XCTUnwrap(response.json as? [String: Any])
        XCTAssertEqual((report["findings"] as? [Any])?.count, 0)
        let incomplete = report["incomplete"] as? [[String: Any]] ?? []
        XCTAssertFalse(incomplete.isEmpty)
        XCTAssertTrue(incomplete.allSatisfy { ($0["reason"] as? String)?.contains("time budget") == true }, "\(incomplete)")
        XCTAssertFalse(response.text.contains("4000 × 4000 px"), "the screenshot was never attached")
        XCTAssertEqual(daemon.metric("auditd_audit_budget_exceeded_total"), 1)
    }

    /// `Connection: close` ends the findings stream's connection when the backlog is
    /// sent, and an HTTP/1.0 client gets the records unchunked, ended by the close.
    func testFindingsStreamsEndAsHTTPSays() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        for _ in 0..<3 { XCTAssertEqual(try daemon.post(DaemonHarness.example("checkout.xml")).status, 200) }
        let lines = daemon.journalRecords().count
        let fd = try daemon.connect()
        defer { close(fd) }
        daemon.send(fd, "GET /v1/findings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        var buffer: [UInt8] = []
        let started = Date()
        let response = try XCTUnwrap(daemon.readResponse(fd, buffer: &buffer))
        XCTAssertEqual(response.headers["transfer-encoding"], "chunked")
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertEqual(response.body.filter { $0 == 0x0A }.count, lines)
        var byte: UInt8 = 0
        XCTAssertEqual(recv(fd, &byte, 1, 0), 0, "the daemon closes the connection after the stream")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "closed at once, not after the idle timeout")

        let old = try daemon.connect()
        defer { close(old) }
        daemon.send(old, "GET /v1/findings HTTP/1.0\r\n\r\n")
        var raw: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(old, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            raw += chunk[0..<count]
        }
        let text = String(decoding: raw, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        XCTAssertTrue(parts[0].hasPrefix("HTTP/1.1 200"), parts[0])
        XCTAssertFalse(parts[0].lowercased().contains("transfer-encoding"), "HTTP/1.0 cannot read chunked bodies: \(parts[0])")
        XCTAssertTrue(parts[0].lowercased().contains("connection: close"))
        let body = parts.dropFirst().joined(separator: "\r\n\r\n")
        XCTAssertEqual(body.split(separator: "\n").count, lines)
        XCTAssertTrue(
            body.split(separator: "\n").allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil },
            "the body is the records alone, no chunk sizes")
    }

    /// An identity the snapshot carries itself is held to the bound of the request's (256
    /// bytes, no control characters): a 100 KB app name is refused with what to do, where
    /// a 1 MB one was taken, repeated into a 109 MB `/metrics` and kept for good. Named
    /// in the request instead, the snapshot is audited, and nothing of the long name stays.
    func testASnapshotsOwnHugeIdentityIsRefused() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let app = String(repeating: "A", count: 100_000)
        let buttons = (0..<40).map { #"<element id="b\#($0)" role="button" frame="\#($0 * 9),0,8,8"/>"# }.joined()
        let xml = #"<snapshot version="1" platform="ios" app="\#(app)" width="390" height="844">\#(buttons)</snapshot>"#
        let response = try daemon.post(Array(xml.utf8))
        XCTAssertEqual(response.status, 400, response.text)
        XCTAssertEqual(code(response), "bad-identity")
        XCTAssertTrue(response.text.contains("the snapshot's app is 100000 bytes"), response.text)
        XCTAssertTrue(response.text.contains("?app="), response.text)
        let screen = #"<snapshot version="1" platform="ios" app="shop" screen="a&#9;b" width="390" height="844">\#(buttons)</snapshot>"#
        XCTAssertEqual(code(try daemon.post(Array(screen.utf8))), "bad-identity", "control characters")
        // Named in the request, which replaces the snapshot's own: audited.
        XCTAssertEqual(try daemon.post(Array(xml.utf8), query: "?app=shop&build=1").status, 200)
        XCTAssertTrue(daemon.journalRecords().allSatisfy { ($0["app"] as? String) == "shop" })
        let metrics = try daemon.request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").text
        XCTAssertLessThan(metrics.utf8.count, 200_000)
        XCTAssertFalse(metrics.contains(String(repeating: "A", count: 300)))
    }

    /// An image where the snapshot belongs is said to be one, with the form to use.
    func testAnImageSentAsTheSnapshotIsNamed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let jpeg = Array(try Data(contentsOf: Self.images.appendingPathComponent("progressive-96-scans-512.jpg")))
        let response = try daemon.post(jpeg)
        XCTAssertEqual(response.status, 415)
        XCTAssertEqual(code(response), "snapshot-is-image")
        XCTAssertTrue(response.text.contains("curl -F snapshot=@"), response.text)
        let form = try postForm(daemon, [("snapshot", "image/jpeg", jpeg)])
        XCTAssertEqual(code(form), "snapshot-is-image")
    }

    /// Pipelined audits whose answers are never read are counted at the size of the
    /// largest answer while they run: what waits stays near --max-unsent-bytes, not 32
    /// answers beyond it.
    func testPipelinedAnswersStayNearTheUnsentLimit() throws {
        let daemon = try DaemonHarness()
        let limit = 1 << 20
        try daemon.start(["--max-unsent-bytes", String(limit)])
        // About 190 KB of answer each.
        let buttons = (0..<300).map { #"<element id="b\#($0)" role="button" frame="\#($0 % 30 * 12),\#($0 / 30 * 12),8,8"/>"# }.joined()
        let body = Array(#"<snapshot version="1" platform="ios" width="390" height="844">\#(buttons)</snapshot>"#.utf8)
        let answer = try daemon.post(body).body.count
        XCTAssertGreaterThan(answer, 100_000)
        let fd = try daemon.connect()
        defer { close(fd) }
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let request = Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        daemon.send(fd, Array([[UInt8]](repeating: request, count: 32).joined()))
        // Settled: nothing running, nothing queued, the same bytes held twice in a row.
        var last = -1.0
        XCTAssertTrue(
            daemon.waitUntil(seconds: 20) {
                let held = daemon.metric("auditd_memory_reserved_bytes") ?? -1
                defer { last = held }
                return daemon.metric("auditd_audits_in_flight") == 0 && daemon.metric("auditd_queue_depth") == 0 && held == last && held > 0
            })
        XCTAssertLessThan(Int(last), limit + 3 * answer, "\(Int(last)) bytes of answers wait for a client that reads none (\(answer) each)")
        // Every request read is still answered once the client reads.
        var buffer: [UInt8] = []
        var answered = 0
        while answered < 32, let response = daemon.readResponse(fd, buffer: &buffer) {
            XCTAssertEqual(response.status, 200)
            answered += 1
        }
        XCTAssertEqual(answered, 32)
    }
}
