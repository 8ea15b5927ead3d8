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
            throw GoldenError(description: "examples.json is not an array of reports: regenerate it (AUDITD_UPDATE_GOLDEN=1)")
        }
        return try reports.map { report in
            // A broken golden fails the test: it never skips it.
            guard case .object(let members) = report, case .string(let file)? = members.first(where: { $0.0 == "file" })?.1 else {
                throw GoldenError(description: "examples.json holds a report without its file: regenerate it (AUDITD_UPDATE_GOLDEN=1)")
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

    /// The text format writes the instances of one defect as one line: the first, "×N" and
    /// where the others are; the counts stay those of the findings.
    func testTheTextFormatGroupsTheInstancesOfADefect() throws {
        let rows = (0..<7).map { row in
            ##"<element id="row" role="cell" frame="0,\##(100 + row * 60),390,56"><element role="text" text="Item \##(row)" frame="16,\##(104 + row * 60),200,20"/><element id="remove" role="button" image="icon_trash" frame="340,\##(104 + row * 60),44,44"/></element>"##
        }.joined()
        let xml =
            ##"<snapshot version="1" platform="ios" app="com.example" screen="Cart" width="390" height="844"><element id="cart" role="container" frame="0,80,390,700">"## + rows
            + "</element></snapshot>"
        let snapshot = try SnapshotParser().parse(xml)
        let report = Auditor.audit(snapshot, ruleSet: try XCTUnwrap(RuleSetLibrary.load(directories: [DaemonHarness.rules.path])["ios-default"]))
        let result = SnapshotResult(file: "cart.xml", status: 200, body: ReportWriter.render(report).bytes, summaryOnly: false)
        let text = TextFormat.render([result], context: FormatContext(color: false, hasBaseline: false, ruleSets: [:]))
        let missing = text.split(separator: "\n").filter { $0.contains("[label.missing]") }
        XCTAssertEqual(missing.count, 1, text)
        XCTAssertTrue(missing.first?.contains("×7, also at :") ?? false, text)
        XCTAssertTrue(missing.first?.contains(" and 1 more") ?? false, text)
        let errors = report.findings.filter { $0.finding.severity == .error }.count
        XCTAssertGreaterThanOrEqual(errors, 7)
        XCTAssertTrue(text.contains("   \(errors) errors,"), "the counts stay the findings': \(text)")
        XCTAssertTrue(text.contains(" defects)"), text)
        // JUnit: one testcase (one failure) for the defect, its instances in the failure.
        let junit = JUnitFormatter.render([result], context: FormatContext(color: false, hasBaseline: false, ruleSets: [:]))
        let cases = junit.components(separatedBy: "<testcase name=\"label.missing: ").dropFirst()
        XCTAssertEqual(cases.count, 1, junit)
        XCTAssertTrue(cases.first?.hasPrefix("remove ×7\"") ?? false, junit)
        XCTAssertTrue(cases.first?.contains("7 instances of one defect; also at:") ?? false, junit)
        // HTML: every instance listed, each saying which defect it belongs to.
        let html = HTMLFormatter.render([result], context: FormatContext(color: false, hasBaseline: false, ruleSets: [:]))
        XCTAssertEqual(html.components(separatedBy: "<p class=\"defect\">One defect, 7 instances: ").count - 1, 7, "one line per instance")
        XCTAssertTrue(html.contains("One defect, 7 instances: the same problem at findings "), html)
        XCTAssertTrue(html.contains("One defect, 7 instances: the same problem as finding "), html)
    }

    /// The HTML report names elements as a person does: role, name (or what the screen
    /// reader says for a layout without one) and where it sits; frames in dp on Android.
    func testTheHTMLReportNamesElementsAsAPersonDoes() throws {
        let ios = Array(
            #"""
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844">
            <XCUIElementTypeNavigationBar type="XCUIElementTypeNavigationBar" name="Groceries" x="0" y="47" width="390" height="44">
            <XCUIElementTypeButton type="XCUIElementTypeButton" name="Add" label="Add" x="340" y="50" width="40" height="38" enabled="true" visible="true" accessible="true"/>
            </XCUIElementTypeNavigationBar>
            <XCUIElementTypeTable type="XCUIElementTypeTable" x="0" y="91" width="390" height="300">
            <XCUIElementTypeCell type="XCUIElementTypeCell" name="Milk" label="Milk" x="0" y="91" width="390" height="44" enabled="true" visible="true">
            <XCUIElementTypeImage type="XCUIElementTypeImage" x="350" y="100" width="20" height="20" enabled="true" visible="true"/>
            </XCUIElementTypeCell></XCUIElementTypeTable>
            </XCUIElementTypeApplication></AppiumAUT>
            """#.utf8)
        let screen = HTMLScreen(snapshotIndex: 0, title: "t", source: ios, screenshot: nil)
        XCTAssertEqual(screen.personName(line: 3, column: 1), "button “Add” in the navigation bar")
        XCTAssertEqual(screen.personName(line: 7, column: 1), "unnamed image in row “Milk”")
        XCTAssertEqual(screen.frameUnit, "pt")
        let android = Array(
            #"""
            <hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]">
            <node class="android.widget.LinearLayout" resource-id="com.example:id/tab_search" package="com.example" clickable="true" enabled="true" bounds="[0,2200][540,2400]">
            <node class="android.widget.TextView" text="Search" package="com.example" bounds="[40,2250][500,2350]"/></node>
            </node></hierarchy>
            """#.utf8)
        let tab = HTMLScreen(snapshotIndex: 0, title: "t", source: android, screenshot: nil)
        XCTAssertEqual(tab.personName(line: 2, column: 1), "clickable group “Search”")
        XCTAssertEqual(tab.frameUnit, "dp")
    }
}

/// A golden file that cannot be read as one: the test fails with how to fix it.
struct GoldenError: Error, CustomStringConvertible {
    let description: String
}
