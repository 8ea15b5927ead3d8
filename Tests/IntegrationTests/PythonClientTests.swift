import Foundation
import XCTest

/// The Python client, its Appium hook and its pytest plugin (clients/python; issue 57), run by
/// their own pytest suite against the binaries under test: the real daemon over its socket,
/// the real Appium-Python-Client against a fake W3C WebDriver server serving real captures.
/// A failure there fails here, with pytest's output.
final class PythonClientTests: XCTestCase {
    func testThePythonClientsOwnSuitePasses() throws {
        let daemon = try DaemonHarness()
        let package = DaemonHarness.packageRoot.appendingPathComponent("clients/python")
        let run = try daemon.run(
            "/usr/bin/env",
            ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", package.appendingPathComponent("tests").path],
            environment: ["AUDITD_BIN_DIR": DaemonHarness.binaries.path],
            directory: package)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertNotNil(run.stdout.range(of: #"\b(\d+) passed"#, options: .regularExpression), run.stdout)
        XCTAssertFalse(run.stdout.contains("skipped"), "nothing of the client's suite may be skipped: \(run.stdout)")
    }
}
