import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The hostile-input corpus (Tests/IntegrationTests/Hostile, made by
/// scripts/make-hostile-corpus.py) against the real daemon: every case gets its expected
/// answer, and the daemon keeps serving the next client.
final class HostileCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hostile")

    func testEveryCaseGetsItsExpectedAnswer() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--max-snapshot-bytes", "33554432"])
        let manifest = try String(contentsOf: HostileCorpusTests.corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let rows = manifest.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        XCTAssertGreaterThanOrEqual(rows.count, 40)
        for row in rows {
            let (file, status, expect) = (row[0], Int(row[1]) ?? 0, row[2])
            let body = [UInt8](try Data(contentsOf: HostileCorpusTests.corpus.appendingPathComponent(file)))
            let started = Date()
            let response = try daemon.post(body)
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(file) took too long")
            XCTAssertEqual(response.status, status, "\(file): \(response.text.prefix(300))")
            let json = response.json as? [String: Any]
            XCTAssertFalse(response.text.contains("root:x:0:0"), "\(file): file content leaked")
            if status != 200 {
                let error = json?["error"] as? [String: Any]
                XCTAssertEqual(error?["code"] as? String, expect, "\(file): \(response.text.prefix(300))")
                XCTAssertNotNil(error?["message"], file)
                continue
            }
            let findings = json?["findings"] as? [[String: Any]] ?? []
            let invalid = findings.filter { $0["rule"] as? String == "snapshot.invalid-value" }
                .compactMap { ($0["evidence"] as? [String: Any])?["attribute"] as? String }
            if expect.hasPrefix("elements=") {
                XCTAssertEqual((json?["snapshot"] as? [String: Any])?["elements"] as? Int, Int(expect.dropFirst(9)), file)
            } else if expect.hasPrefix("invalid-value=") {
                XCTAssertTrue(invalid.contains(String(expect.dropFirst(14))), "\(file): \(invalid)")
            } else if expect == "no-invalid-value" {
                XCTAssertEqual(invalid, [], file)
            }
            XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200, "still serving after \(file)")
        }
    }

    func testGeneratedLargeCases() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        // A 100 MB body against the 32 MiB limit: refused from its headers, nothing buffered.
        let fd = try daemon.connect()
        daemon.send(fd, "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n")
        daemon.send(fd, [UInt8](repeating: 0x20, count: 1 << 20))
        var buffer: [UInt8] = []
        XCTAssertEqual(daemon.readResponse(fd, buffer: &buffer)?.status, 413)
        close(fd)
        // A 10 MB attribute: too large for one value.
        let huge = "<snapshot version=\"1\"><element label=\"" + String(repeating: "a", count: 10_000_001) + "\"/></snapshot>"
        let attribute = try daemon.post(Array(huge.utf8))
        XCTAssertEqual(attribute.status, 413, attribute.text.prefix(200).description)
        // 100,000 attributes on one element: parsed.
        let wide = "<snapshot version=\"1\"><element id=\"w\"" + (0..<100_000).map { " a\($0)=\"1\"" }.joined() + "/></snapshot>"
        XCTAssertEqual(try daemon.post(Array(wide.utf8)).status, 200)
        // Nesting 100,000 deep: refused with its line and column.
        let deep = "<snapshot version=\"1\">" + String(repeating: "<element>", count: 100_000) + String(repeating: "</element>", count: 100_000) + "</snapshot>"
        let nested = try daemon.post(Array(deep.utf8))
        XCTAssertEqual(nested.status, 400)
        XCTAssertEqual(((nested.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String, "too-deep")
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
    }
}
