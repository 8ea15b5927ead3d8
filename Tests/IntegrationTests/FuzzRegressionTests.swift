import Foundation
import XCTest

/// Every input in Fuzz/corpus (seeds, and each crash the fuzzers found, once fixed) goes
/// through its fuzz target again, in the ordinary build: none may crash.
final class FuzzRegressionTests: XCTestCase {
    func testFuzzCorporaReplayWithoutCrashing() throws {
        let daemon = try DaemonHarness()
        let tool = DaemonHarness.binaries.appendingPathComponent("auditfuzz").path
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "auditfuzz is not built")
        for target in ["parser", "http", "rulesets", "image"] {
            let corpus = DaemonHarness.packageRoot.appendingPathComponent("Fuzz/corpus/\(target)").path
            let run = try daemon.run(tool, [target, corpus])
            XCTAssertEqual(run.status, 0, "\(target): \(run.stderr)")
            XCTAssertTrue(run.stdout.contains("no crash"), run.stdout)
        }
    }
}
