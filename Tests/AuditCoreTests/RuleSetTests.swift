import AuditCore
import Foundation
import XCTest

/// The shipped rule sets load, `extends` resolves, and broken files are refused with the
/// file, key and reason.
final class RuleSetTests: XCTestCase {
    var rulesDirectory: String { TestSupport.packageRoot.appendingPathComponent("Rules").path }

    func testShippedRuleSets() throws {
        let library = try RuleSetLibrary.load(directories: [rulesDirectory])
        XCTAssertEqual(library.names, ["android-default", "ios-default", "wcag22-aa", "wcag22-aaa"])
        // Membership comes from the rules' own declarations (`enabledIn`), never kept by hand here.
        let aaRules = Set(BuiltInRules.all.filter { $0.description.enabledIn.contains(.wcag) }.map { $0.description.id })
        let aa = try XCTUnwrap(library["wcag22-aa"])
        XCTAssertEqual(Set(aa.entries.map(\.id)), aaRules)
        XCTAssertGreaterThanOrEqual(aaRules.count, 20)
        XCTAssertEqual(
            Set(try XCTUnwrap(library["ios-default"]).entries.map(\.id)).subtracting(aaRules),
            Set(BuiltInRules.all.filter { $0.description.enabledIn.contains(.ios) && !$0.description.enabledIn.contains(.wcag) }.map { $0.description.id }))
        XCTAssertFalse(aa.entries.contains { $0.id == "screen-reader.modal-escape" || $0.id == "screen-reader.ungrouped-cell" }, "iOS's own checks are not WCAG's")
        // The platform sets add their own checks to WCAG's, and none is the other's alone.
        let ios = try XCTUnwrap(library["ios-default"])
        let android = try XCTUnwrap(library["android-default"])
        XCTAssertTrue(aaRules.isSubset(of: Set(ios.entries.map(\.id))))
        XCTAssertTrue(aaRules.isSubset(of: Set(android.entries.map(\.id))))
        XCTAssertEqual(
            Set(ios.entries.map(\.id)).union(android.entries.map(\.id)),
            Set(BuiltInRules.all.filter { !$0.description.enabledIn.isEmpty }.map { $0.description.id }),
            "every built-in rule that is not opt-in runs in a platform set")
        XCTAssertFalse(ios.entries.contains { $0.id == "screen-reader.no-headings" }, "opt-in rules run where a set names them")
        XCTAssertTrue(ios.entries.contains { $0.id == "screen-reader.modal-escape" })
        XCTAssertTrue(android.entries.contains { $0.id == "label.editable-description" })
        XCTAssertFalse(ios.entries.contains { $0.id == "label.editable-description" }, "a content description replaces a field's text on Android only")
        XCTAssertEqual(ios.entries.first { $0.id == "target-size" }?.parameters["platform-minimum"], .int(44))
        XCTAssertEqual(android.entries.first { $0.id == "target-size" }?.parameters["platform-minimum"], .int(48))
        XCTAssertEqual(android.entries.first { $0.id == "target-size" }?.parameters["platform-edge-minimum"], .int(32))
        XCTAssertEqual(ios.entries.first { $0.id == "snapshot.unauditable" }?.parameters["platform"], .string("ios"))
        let aaa = try XCTUnwrap(library["wcag22-aaa"])
        XCTAssertEqual(aaa.entries.first { $0.id == "contrast.text" }?.parameters["normal-ratio"], .int(7))
        XCTAssertEqual(library.defaultSet(for: .ios)?.name, "ios-default")
        XCTAssertEqual(library.defaultSet(for: .android)?.name, "android-default")
        XCTAssertEqual(library.defaultSet(for: .web)?.name, "wcag22-aa")
        XCTAssertEqual(library.defaultSet(for: .other)?.name, "wcag22-aa")
    }

    func testPlatformMinimumChangesFindings() throws {
        let library = try RuleSetLibrary.load(directories: [rulesDirectory])
        let snapshot = try TestSupport.parse(TestSupport.native(#"<element id="b" role="button" label="Go" frame="10,10,40,40"/>"#))
        let aa = Auditor.audit(snapshot, ruleSet: try XCTUnwrap(library["wcag22-aa"]))
        XCTAssertFalse(aa.findings.contains { $0.finding.ruleID == "target-size" })
        let ios = Auditor.audit(snapshot, ruleSet: try XCTUnwrap(library["ios-default"]))
        let finding = try XCTUnwrap(ios.findings.first { $0.finding.ruleID == "target-size" })
        XCTAssertEqual(finding.finding.severity, .warning)
        // A platform guideline, not a WCAG criterion: named in the evidence.
        XCTAssertEqual(finding.finding.wcag, [])
        XCTAssertEqual(finding.finding.evidence("guideline"), .string("Apple Human Interface Guidelines (44 × 44 pt)"))
        XCTAssertEqual(finding.finding.message, "Target 40×40 pt is smaller than the platform's 44×44 pt")
    }

    func write(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rulesets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return directory.path
    }

    func loadError(_ files: [String: String]) throws -> RuleSetError? {
        let directory = try write(files)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            _ = try RuleSetLibrary.load(directories: [directory])
            return nil
        } catch {
            return error
        }
    }

    func testBrokenFilesAreRefusedWithFileKeyAndReason() throws {
        let unknownRule = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "rules": {"contrast.txt": true}}"#]))
        XCTAssertTrue(unknownRule.file.hasSuffix("a.json"))
        XCTAssertEqual(unknownRule.key, "rules.contrast.txt")
        XCTAssertTrue(unknownRule.reason.contains("did you mean \"contrast.text\""), unknownRule.reason)

        let badParameter = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "rules": {"target-size": {"parameters": {"minimum": "big"}}}}"#]))
        XCTAssertEqual(badParameter.key, "rules.target-size.parameters.minimum")
        XCTAssertEqual(badParameter.reason, "expected a number")

        let unknownParameter = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "rules": {"target-size": {"parameters": {"minimun": 3}}}}"#]))
        XCTAssertEqual(unknownParameter.key, "rules.target-size.parameters.minimun")

        let cycle = try XCTUnwrap(
            try loadError([
                "a.json": #"{"name": "a", "extends": "b"}"#, "b.json": #"{"name": "b", "extends": "c"}"#, "c.json": #"{"name": "c", "extends": "a"}"#,
            ]))
        XCTAssertEqual(cycle.key, "extends")
        XCTAssertTrue(cycle.reason.hasPrefix("cycle: "), cycle.reason)

        let missingParent = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "extends": "nope"}"#]))
        XCTAssertEqual(missingParent.key, "extends")

        let badJSON = try XCTUnwrap(try loadError(["a.json": "{\"name\": \"a\",\n \"rules\": {,}}"]))
        XCTAssertTrue(badJSON.reason.contains("2:"), badJSON.reason)

        let badXPath = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "custom": [{"id": "custom.x", "xpath": "//element[@id="}]}"#]))
        XCTAssertEqual(badXPath.key, "custom[0].xpath")
        XCTAssertTrue(badXPath.reason.contains("invalid XPath"))

        let badSeverity = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "rules": {"label.missing": {"severity": "fatal"}}}"#]))
        XCTAssertEqual(badSeverity.key, "rules.label.missing.severity")

        let unknownKey = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "rulez": {}}"#]))
        XCTAssertEqual(unknownKey.key, "rulez")
        // A misspelt key in a suppression or custom rule would silently change what it means.
        let misspelt = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "suppress": [{"rule": "target-size", "elemnt": "debug-*"}]}"#]))
        XCTAssertEqual(misspelt.key, "suppress[0].elemnt")
        XCTAssertTrue(misspelt.reason.contains(#"did you mean "element""#), misspelt.reason)
        let customKey = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "custom": [{"id": "custom.x", "xpath": "//element", "severty": "error"}]}"#]))
        XCTAssertEqual(customKey.key, "custom[0].severty")
    }

    /// A set takes a group of rules by their declarations, and tunes or drops some.
    func testDefaultsTakeTheRulesThatDeclareThemselves() throws {
        let directory = try write([
            "team.json": #"{"name": "team", "defaults": "android", "rules": {"screen-reader.role": false, "label.missing": {"severity": "warning"}}}"#
        ])
        let team = try XCTUnwrap(try RuleSetLibrary.load(directories: [directory])["team"])
        let android = Set(BuiltInRules.all.filter { $0.description.enabledIn.contains(.android) }.map { $0.description.id })
        XCTAssertTrue(android.contains("label.editable-description"))
        XCTAssertEqual(Set(team.entries.map(\.id)), android.subtracting(["screen-reader.role"]).union(["label.missing"]))
        XCTAssertEqual(team.entries.first { $0.id == "label.missing" }?.severity, .warning)
        XCTAssertEqual(team.entries.first { $0.id == "label.editable-description" }?.severity, LabelEditableDescriptionRule.description.severity)

        let unknown = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "defaults": "windows"}"#]))
        XCTAssertEqual(unknown.key, "defaults")
        XCTAssertTrue(unknown.reason.contains("wcag, ios, android"), unknown.reason)
    }

    /// The example of docs/rulesets.md loads beside the shipped sets and means what it says.
    func testTheDocumentedExampleLoads() throws {
        let doc = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/rulesets.md"), encoding: .utf8)
        let example = try XCTUnwrap(doc.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let directory = try write(["team.json": example])
        let library = try RuleSetLibrary.load(directories: [rulesDirectory, directory])
        let team = try XCTUnwrap(library["team"])
        XCTAssertFalse(team.entries.contains { $0.id == "screen-reader.role" })
        XCTAssertTrue(team.entries.contains { $0.id == "label.editable-description" })
        XCTAssertEqual(team.entries.first { $0.id == "label.missing" }?.severity, .warning)
        XCTAssertEqual(team.suppressions.count, 1)
        XCTAssertEqual(team.customRules.map(\.id), ["custom.no-webview"])
    }

    func testExtendsDisablesSeveritySuppressionsAndXPath() throws {
        let directory = try write([
            "base.json": #"{"name": "base", "rules": {"label.missing": true, "contrast.text": true, "target-size": true}}"#,
            "team.json": """
            {"name": "team", "extends": "base",
             "rules": {"contrast.text": false, "label.missing": {"severity": "notice"}},
             "suppress": [{"rule": "target-*", "element": "debug-*", "reason": "debug overlay"},
                          {"rule": "label.missing", "screen": "Legacy*"}],
             "custom": [{"id": "custom.lorem", "xpath": "//element[contains(@text, 'Lorem')]", "severity": "warning",
                         "message": "Placeholder text left in the UI", "wcag": ["3.1.1"]}]}
            """,
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let library = try RuleSetLibrary.load(directories: [directory])
        let team = try XCTUnwrap(library["team"])
        XCTAssertEqual(team.entries.map(\.id), ["label.missing", "target-size"])
        XCTAssertEqual(team.entries.first?.severity, .notice)

        let xml = TestSupport.native(
            """
            <element id="debug-button" role="button" label="Debug" frame="0,0,10,10"/>
            <element id="x" role="button" frame="12,0,10,10"/>
            <element id="lorem" role="text" text="Lorem ipsum" foreground="#999999"/>
            """)
        let snapshot = try TestSupport.parse(xml)
        let report = Array(xml.utf8).withUnsafeBytes { Auditor.audit(snapshot, ruleSet: team, source: $0) }
        let pairs = report.findings.map { "\($0.finding.ruleID)@\($0.elementID ?? "-")" }
        XCTAssertEqual(pairs, ["label.missing@x", "target-size@x", "custom.lorem@lorem"])
        XCTAssertEqual(report.suppressed, ["target-size": 1])
        XCTAssertEqual(report.findings.last?.finding.message, "Placeholder text left in the UI")
        XCTAssertEqual(report.findings.last?.finding.wcag, ["3.1.1"])
    }

    /// Renamed rules (issue 55: Android findings carried iOS names): the former ids are still
    /// accepted in rule sets, suppressions and a11y-ignore lists, and a finding's fingerprint
    /// is what it was under the former id.
    func testAFormerRuleIdStillNamesItsRule() throws {
        XCTAssertEqual(BuiltInRules.canonicalID("voiceover.traits"), "screen-reader.role")
        XCTAssertEqual(BuiltInRules.canonicalID("dynamic-type.fixed-size"), "text-scaling.fixed-size")
        XCTAssertEqual(BuiltInRules.fingerprintID("screen-reader.role"), "voiceover.traits")
        XCTAssertEqual(BuiltInRules.fingerprintID("label.missing"), "label.missing")
        let directory = try write([
            "old.json": """
            {"name": "old", "rules": {"voiceover.traits": {"severity": "warning"}, "label.missing": true},
             "suppress": [{"rule": "voiceover.*", "element": "legacy-*"}]}
            """
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = try XCTUnwrap(try RuleSetLibrary.load(directories: [directory])["old"])
        XCTAssertEqual(old.entries.map(\.id).sorted(), ["label.missing", "screen-reader.role"])
        XCTAssertEqual(old.entries.first { $0.id == "screen-reader.role" }?.severity, .warning)
        let xml = TestSupport.native(
            """
            <element id="legacy-row" role="text" text="Open" interactive="true" frame="0,0,200,44"/>
            <element id="row" role="text" text="Close" interactive="true" frame="0,60,200,44"/>
            <element id="inline" role="text" text="Save" interactive="true" a11y-ignore="voiceover.traits" frame="0,120,200,44"/>
            """)
        let snapshot = try TestSupport.parse(xml)
        let report = Array(xml.utf8).withUnsafeBytes { Auditor.audit(snapshot, ruleSet: old, source: $0) }
        XCTAssertEqual(report.findings.map { "\($0.finding.ruleID)@\($0.elementID ?? "-")" }, ["screen-reader.role@row"])
        XCTAssertEqual(report.suppressed, ["screen-reader.role": 2], "one by the rule set's glob, one by the element's own list")
        // A typo of a former id is told the id it is closest to.
        let typo = try XCTUnwrap(try loadError(["a.json": #"{"name": "a", "rules": {"voiceover.trait": true}}"#]))
        XCTAssertTrue(typo.reason.contains("did you mean \"voiceover.traits\""), typo.reason)
    }
}
