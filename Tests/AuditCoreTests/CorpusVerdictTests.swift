import AuditCore
import Foundation
import XCTest

/// Verdicts on real dumps of Tests/Fixtures/corpus, read by hand against their XML (issue 19):
/// targets judged in context, what is not the app's, and the hierarchy checks ATF and Apple
/// have. Each names the dump and the element, so a regression says where to look.
final class CorpusVerdictTests: XCTestCase {
    static let library = Result { try RuleSetLibrary.load(directories: [TestSupport.packageRoot.appendingPathComponent("Rules").path]) }

    func audit(_ path: String) throws -> (Snapshot, AuditReport) {
        let bytes = [UInt8](try Data(contentsOf: TestSupport.corpus.appendingPathComponent(path)))
        let snapshot = try SnapshotParser().parse(bytes)
        let ruleSet = try XCTUnwrap(try Self.library.get().defaultSet(for: snapshot.platform))
        return (snapshot, Auditor.audit(snapshot, ruleSet: ruleSet))
    }

    func findings(_ report: AuditReport, _ rule: String, element: String? = nil) -> [AuditReport.Located] {
        report.findings.filter { $0.finding.ruleID == rule && (element == nil || $0.elementID == element) }
    }

    /// The launcher's one node comes first in this dump; the app is the package of the rest.
    func testTheAppIsThePackageOfItsWindow() throws {
        let (snapshot, report) = try audit("android/aimer1234567__pytest-scaffolding__page_source.xml")
        XCTAssertEqual(snapshot.app, "com.xingin.xhs")
        XCTAssertTrue(snapshot.notes.contains { $0.contains("com.miui.home") }, "\(snapshot.notes)")
        // The grid's cards are clickable and so is the one view filling each: ATF's duplicate bounds.
        XCTAssertEqual(findings(report, "target-duplicate").count, 6)
        XCTAssertTrue(findings(report, "target-duplicate").allSatisfy { $0.finding.evidence("nested") == .bool(true) })
    }

    /// Xiaohongshu's video cards: a long-clickable frame described "视频 …" (the stop TalkBack
    /// reads) wraps a clickable frame holding only pictures — the named card's frame, never a
    /// stop of its own, so no unlabelled control; the note cards name themselves by their text.
    func testAFrameInsideANamedCardIsNotAnUnlabelledControl() throws {
        let (snapshot, report) = try audit("android/aimer1234567__pytest-scaffolding__page_source.xml")
        let missing = findings(report, "label.missing")
        for located in missing {
            let element = try XCTUnwrap(located.finding.element)
            var ancestor = Int(snapshot.elements[element].parent)
            while ancestor >= 0 {
                let outer = snapshot.elements[ancestor]
                XCTAssertFalse(
                    outer.isInteractive && !snapshot.texts.isBlank(outer.label) && snapshot.elements[element].firstChild >= 0,
                    "\(located.path ?? ""): a frame inside the named \(snapshot.path(of: ancestor))")
                ancestor = Int(outer.parent)
            }
        }
    }

    /// Google Tasks: 18 tasks, each with "Add star" and "Mark as complete" — controls a
    /// TalkBack user cannot tell apart; the completion checkbox does another thing than its
    /// row (opening the task), so its size stays a warning, not a notice.
    func testRepeatedControlsAndControlsOfTheirOwnInsideARow() throws {
        let (_, report) = try audit("android/tinmaungzin__google-tasks-crawler__hierarchy.xml")
        let repeated = findings(report, "label.duplicate").filter { $0.finding.resultID == "repeated" }
        // One finding for the group, as ATF reports it, counting the 18.
        let stars = repeated.filter { $0.finding.evidence("label") == .string("Add star") }
        XCTAssertEqual(stars.count, 1)
        XCTAssertEqual(stars.first?.finding.evidence("count"), .int(18))
        XCTAssertEqual(stars.first?.finding.severity, .warning)
        let checks = findings(report, "target-size", element: "com.google.android.apps.tasks:id/tasks_item_completed_check")
        XCTAssertFalse(checks.isEmpty)
        XCTAssertTrue(checks.allSatisfy { $0.finding.severity == .warning && $0.finding.resultID == "below-platform-minimum" })
    }

    /// Zomato: a card of a horizontal list cut off at the list's right edge is 46 dp wide on
    /// screen; its real width is not in the capture, so it is incomplete, not too small.
    func testATargetCutOffByItsListIsIncomplete() throws {
        let (_, report) = try audit("android/devjayswal__App_Scrapper_and_Extracter__summury_page.xml")
        XCTAssertTrue(
            findings(report, "target-size", element: "com.application.zomato:id/recommend_root_layout")
                .allSatisfy { $0.finding.evidence("width").flatMap(\.doubleValue).map { $0 > 100 } ?? false })
        XCTAssertTrue(
            report.incomplete.contains {
                $0.incomplete.ruleID == "target-size" && $0.elementID == "com.application.zomato:id/recommend_root_layout"
                    && $0.incomplete.reason.contains("recyclerView")
            }, "\(report.incomplete.map(\.incomplete.reason))")
        // Icon-font glyphs as names.
        XCTAssertGreaterThanOrEqual(findings(report, "label.unreadable").filter { $0.finding.resultID == "private-use-glyph" }.count, 10)
    }

    /// Rootly (iOS) and Yokara draw their own tab bars, which XCUITest gives as images: each
    /// named item of the row along the bottom edge looks like a tab, inferred (a warning);
    /// Yokara's unnamed fifth is label.missing's alone.
    func testATabBarTheAppDrawsIsSaidToLookLikeTabs() throws {
        let (_, rootly) = try audit("ios/kkolla06__autoRootly__raw_ios_xml_rootly-home.xml")
        let tabs = findings(rootly, "screen-reader.role").filter { $0.finding.resultID == "looks-like-tab" }
        XCTAssertEqual(Set(tabs.compactMap(\.elementID)), ["nav_home", "nav_alerts", "nav_incident", "nav_schedules", "nav_menu_toggle"])
        XCTAssertTrue(tabs.allSatisfy { $0.finding.severity == .warning })
        let (_, yokara) = try audit("ios/ngocllb__Yokara__current_ios_dump.xml")
        XCTAssertEqual(findings(yokara, "screen-reader.role").filter { $0.finding.resultID == "looks-like-tab" }.count, 4)
    }

    /// Xiaohongshu's home tabs fill their strip's height (an obfuscated scroller, either axis):
    /// not cut in their height, so the six 41.9-dp tabs are judged; the seventh, narrow and
    /// cut at the strip's right edge, is as short in its whole height: judged too (issue 55:
    /// a target is in doubt only when every dimension where it is small may be cut).
    func testTabsFillingTheirStripAreJudged() throws {
        let (_, report) = try audit("android/aimer1234567__pytest-scaffolding__page_source.xml")
        let tabs = findings(report, "target-size").filter { $0.finding.evidence("height").flatMap(\.doubleValue).map { abs($0 - 41.905) < 0.01 } ?? false }
        XCTAssertEqual(tabs.count, 7, "\(tabs.map(\.finding.message))")
        // The seventh says its width may be cut and its whole height decides.
        let partly = tabs.compactMap { $0.finding.evidence("cut")?.stringValue }
        XCTAssertEqual(partly.count, 1, "\(partly)")
        XCTAssertTrue(
            partly.first?.hasSuffix("its width may be cut by the edge of the scrolling com.xingin.xhs:id/0_resource_name_obfuscated; its whole height decides") ?? false,
            "\(partly)")
        let cut = report.incomplete.filter { $0.incomplete.ruleID == "target-size" }
        XCTAssertEqual(cut.count, 0, "\(report.incomplete.map(\.incomplete.reason))")
    }

    /// UICatalog: each text field holds an identical text field (WebDriverAgent's nesting):
    /// one target, reported once.
    func testAFieldInsideAnIdenticalFieldIsOneTarget() throws {
        let (_, report) = try audit("ios/KazuCocoa__page_source_snapshot__test_data_test_hidekeyboard-failed.xml")
        let fields = findings(report, "target-size").filter { $0.path?.contains("TextField") == true }
        XCTAssertEqual(fields.count, 4, "\(fields.map { $0.path ?? "" })")
        XCTAssertFalse(fields.contains { $0.path?.hasSuffix("TextField[1]/XCUIElementTypeTextField[1]") == true })
    }

    /// The keyboard's globe and dictation keys sit outside XCUIElementTypeKeyboard: still the
    /// system's, so neither hidden controls nor duplicate targets of the app.
    func testKeyboardKeysOutsideTheKeyboardAreTheSystems() throws {
        let (snapshot, report) = try audit("ios/zeroG10__Test-project_flutter__qa_shared_recon-dumps_ios-2026-09-23_registration_errors.xml")
        let dictation = try XCTUnwrap(snapshot.elements.indices.first { snapshot.node($0).id == "dictation" })
        XCTAssertTrue(snapshot.elements[dictation].isSystemUI)
        XCTAssertTrue(findings(report, "screen-reader.hidden-control").isEmpty)
        XCTAssertTrue(findings(report, "target-duplicate", element: "dictation").isEmpty)
    }

    /// Login fields described "username" and "password", and a URL field described "Video URL
    /// input field": TalkBack reads that instead of the input.
    func testEditableFieldsWithDescriptions() throws {
        let reports = try ["android/", "ios/"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.appendingPathComponent(folder).path).sorted().map { folder + $0 }
        }.map { try audit($0).1 }
        let described = reports.flatMap { findings($0, "label.editable-description") }
        XCTAssertEqual(Set(described.compactMap { $0.finding.evidence("description")?.stringValue }), ["username", "password", "Video URL input field"])
        // Only Android snapshots: iOS reads a field's label and its value.
        XCTAssertTrue(reports.filter { $0.platform == .ios }.allSatisfy { findings($0, "label.editable-description").isEmpty })
    }
}
