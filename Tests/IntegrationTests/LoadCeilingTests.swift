import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The load ceiling that docs/PERFORMANCE.md compares auditd with
/// (`Benchmarks/ceiling/ceiling.c`) does the work the comparison says it does: every body
/// parsed by libxml2 (a malformed one gets no answer), one journal line of the answer's
/// size per request on disk before the answer, the answer as large as asked.
final class LoadCeilingTests: XCTestCase {
    func testCeilingParsesEveryBodyAndJournalsEveryAnswer() throws {
        let harness = try DaemonHarness()
        let source = DaemonHarness.packageRoot.appendingPathComponent("Benchmarks/ceiling/ceiling.c").path
        let binary = harness.directory.appendingPathComponent("ceiling").path
        let flags = ["-O2", "-I/usr/include/libxml2", source, "-lxml2", "-lpthread", "-o", binary]
        var build = try harness.run("cc", flags)
        if build.status != 0 { build = try harness.run("clang", flags) }
        XCTAssertEqual(build.status, 0, build.stderr)

        let journal = harness.directory.appendingPathComponent("ceiling.jsonl").path
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [harness.socket, journal, "1000"]
        let errors = Pipe()
        server.standardError = errors
        try server.run()
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        // Ready when it accepts a connection (the socket file exists from bind, before listen).
        let deadline = Date().addingTimeInterval(10)
        var ready = false
        while !ready, Date() < deadline {
            if let fd = try? harness.connect() {
                close(fd)
                ready = true
            } else {
                usleep(20_000)
            }
        }
        XCTAssertTrue(ready, "the ceiling server never accepted a connection")

        func journalBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: journal))?[.size] as? Int) ?? -1 }
        for round in 1...3 {
            let answer = try harness.post(DaemonHarness.example("checkout.xml"))
            XCTAssertEqual(answer.status, 200)
            XCTAssertEqual(answer.body.count, 1000)
            XCTAssertEqual(journalBytes(), round * 1001, "a line of the answer's size and a newline per request, written before the answer")
        }
        XCTAssertThrowsError(
            try harness.post(Array("<snapshot version=\"1\">\n<element>".utf8)),
            "a body libxml2 rejects gets no answer: the parse really runs")
        XCTAssertEqual(journalBytes(), 3 * 1001)

        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertNotNil(report.range(of: #"^ceiling: 3 appends, [1-3] syncs\n$"#, options: .regularExpression), report)
    }
}
