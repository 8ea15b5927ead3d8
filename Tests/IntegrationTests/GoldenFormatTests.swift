import Foundation
import XCTest

/// Golden files for every output format of `auditctl audit` over the bundled examples.
/// Values that change per run (audit ids, durations, timestamps, host) are normalized.
/// Regenerate with `AUDITD_UPDATE_GOLDEN=1 swift test --filter GoldenFormatTests`.
final class GoldenFormatTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func normalize(_ text: String) -> String {
        var result = text
        let patterns: [(String, String)] = [
            ("\"audit\": ?\"[0-9A-Z]{26}\"", "\"audit\":\"<id>\""),
            ("\"duration_ms\": ?[0-9.]+", "\"duration_ms\":0"),
            ("timestamp=\"[^\"]*\"", "timestamp=\"<time>\""),
            ("hostname=\"[^\"]*\"", "hostname=\"<host>\""),
            (" time=\"[0-9.]+\"", " time=\"0\""),
        ]
        for (pattern, replacement) in patterns {
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            result = regex.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result), withTemplate: replacement)
        }
        return result
    }

    func testEveryFormatMatchesItsGoldenFile() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let update = ProcessInfo.processInfo.environment["AUDITD_UPDATE_GOLDEN"] == "1"
        // The formats auditctl registers — the choices its command declaration gives
        // `--format`, as the generated reference prints them: each needs a golden file.
        let reference = try daemon.auditctl(["help", "--markdown"]).stdout
        let auditSection = try XCTUnwrap(reference.components(separatedBy: "### auditctl audit").dropFirst().first)
        let formatLine = try XCTUnwrap(auditSection.split(separator: "\n").first { $0.hasPrefix("| `-f, --format ") })
        let choices = try XCTUnwrap(formatLine.split(separator: "`").dropFirst().first).dropFirst("-f, --format ".count)
        let formats = choices.replacingOccurrences(of: "\\|", with: "|").split(separator: "|").map(String.init)
        let extensions = ["text": "txt", "junit": "junit.xml"]
        XCTAssertEqual(formats.first, "text", formatLine.description)
        XCTAssertGreaterThanOrEqual(formats.count, 6, formatLine.description)
        for format in formats {
            let file = "examples." + (extensions[format] ?? format)
            let run = try daemon.auditctl(["audit", "--format", format, "--jobs", "3", "Examples/"], directory: DaemonHarness.packageRoot)
            XCTAssertEqual(run.status, 1, "\(format): \(run.stderr)")
            let output = GoldenFormatTests.normalize(run.stdout)
            let path = GoldenFormatTests.golden.appendingPathComponent(file)
            if update {
                try Data(output.utf8).write(to: path)
                continue
            }
            let expected = try String(contentsOf: path, encoding: .utf8)
            if output != expected {
                let got = output.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
                XCTFail("\(format) differs from \(file) at line \(line + 1):\n got: \(line < got.count ? got[line] : "<end>")\nwant: \(line < want.count ? want[line] : "<end>")")
            }
        }
    }
}
