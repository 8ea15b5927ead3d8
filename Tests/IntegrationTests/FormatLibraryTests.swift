import AuditCore
import AuditFormats
import Foundation
import XCTest

/// The output formats are a library (`AuditFormats`): rendered here straight from the
/// daemon's reports of the examples — the golden JSON — with the rule sets loaded from
/// `Rules/` and the examples' own bytes, no daemon and no auditctl. Each must give its
/// golden file byte for byte, as `auditctl audit --format X` does through the daemon
/// (GoldenFormatTests); a format registered without a golden file fails.
final class FormatLibraryTests: XCTestCase {
    func results() throws -> [SnapshotResult] {
        let golden = try Data(contentsOf: GoldenFormatTests.golden.appendingPathComponent("examples.json"))
        guard case .array(let reports) = try JSONParser.parse([UInt8](golden)) else {
            XCTFail("examples.json is not an array")
            return []
        }
        return try reports.map { report in
            guard case .object(let members) = report, case .string(let file)? = members.first(where: { $0.0 == "file" })?.1 else {
                throw XCTSkip("a report without its file")
            }
            var body: [UInt8] = []
            // The golden's normalized audit id stands for one of the daemon's 26-character ids.
            let sent = members.filter { $0.0 != "file" }.map { $0.0 == "audit" ? ($0.0, JSON.string(String(repeating: "0", count: 26))) : $0 }
            JSON.object(sent).write(to: &body)
            return SnapshotResult(file: file, status: 200, body: body, summaryOnly: false)
        }
    }

    func context(for results: [SnapshotResult], format: any ReportFormat.Type) throws -> FormatContext {
        let library = try RuleSetLibrary.load(directories: [DaemonHarness.packageRoot.appendingPathComponent("Rules").path])
        var ruleSets: [String: RuleSet] = [:]
        for name in Set(results.compactMap { $0.report?.ruleSet }) { ruleSets[name] = library.sets[name] }
        var context = FormatContext(color: false, hasBaseline: false, ruleSets: format.needsRuleSets ? ruleSets : [:])
        if format.needsSources {
            for result in results {
                let path = DaemonHarness.packageRoot.appendingPathComponent(result.file)
                context.sources[result.file] = [UInt8](try Data(contentsOf: path))
                let screenshot = path.deletingPathExtension().appendingPathExtension("png")
                if let bytes = try? Data(contentsOf: screenshot) { context.screenshots[result.file] = [UInt8](bytes) }
            }
        }
        return context
    }

    func testEveryFormatRendersItsGoldenFileWithoutTheDaemon() throws {
        let results = try results()
        XCTAssertEqual(results.count, 7, "the examples' reports")
        XCTAssertTrue(results.allSatisfy { $0.report != nil }, "\(results.compactMap(\.error))")
        let extensions = ["text": "txt", "junit": "junit.xml"]
        XCTAssertEqual(ReportFormats.all.first?.name, "text")
        for format in ReportFormats.all {
            let context = try context(for: results, format: format)
            var bytes: [UInt8] = []
            format.write(results, context: context, to: &bytes)
            let output = GoldenFormatTests.normalize(String(decoding: bytes, as: UTF8.self))
            let file = "examples." + (extensions[format.name] ?? format.name)
            let expected = try String(contentsOf: GoldenFormatTests.golden.appendingPathComponent(file), encoding: .utf8)
            if output != expected {
                let got = output.split(separator: "\n", omittingEmptySubsequences: false)
                let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
                XCTFail(
                    "\(format.name) differs from \(file) at line \(line + 1):\n got: \(line < got.count ? got[line] : "<end>")\nwant: \(line < want.count ? want[line] : "<end>")")
            }
        }
    }
}
