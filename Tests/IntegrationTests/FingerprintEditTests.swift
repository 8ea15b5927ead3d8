import Foundation
import XCTest

/// One element changed, one element's findings move: scripted edits of the corpus's real
/// dumps (`Identity/edit_dumps.py`: a row inserted at the top, a row removed, two rows
/// reordered, a row's text changed or taken away, a missing label added, the file
/// reformatted), each audited before and after by the real daemon. Every element the edit
/// did not touch keeps the fingerprints of the findings it still has (docs/findings.md,
/// "What moves a fingerprint").
final class FingerprintEditTests: XCTestCase {
    static let script = DaemonHarness.packageRoot.appendingPathComponent("Tests/IntegrationTests/Identity/edit_dumps.py").path
    static let corpus = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/corpus")

    struct Summary: Decodable {
        let edits: Int
        let broken: Int
    }

    func edit(_ daemon: DaemonHarness, _ files: [String]) throws -> (summary: Summary, output: String) {
        let run = try daemon.run("python3", [Self.script, daemon.binaries.appendingPathComponent("auditctl").path] + files)
        let last = try XCTUnwrap(run.stdout.split(separator: "\n").last, run.stderr)
        let summary = try JSONDecoder().decode(Summary.self, from: Data(last.utf8))
        return (summary, run.stdout + run.stderr)
    }

    /// Lists of real apps — Google Tasks, WeChat's contacts, WeWork's profile form, an
    /// Avito filter, Android Settings, a Korean settings screen, a clock — where every edit
    /// of every kind keeps its promise exactly.
    func testEditsOfListsMoveOnlyTheEditedRow() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let files = [
            "android/tinmaungzin__google-tasks-crawler__hierarchy.xml",
            "android/WiesenWong__WinXinByAndroid__uidump.xml",
            "android/guuohongliang1818__appwework__page_source.txt.xml",
            "android/kram1k__android_avito_parsing__filter_hierarchy.xml",
            "android/ldi-github__shirates-builder__testData_xml_androidSettings1_54.xml",
            "android/samhyoung77__test_scripts__page_source.xml",
            "android/web-infra-dev__midscene__packages_android_tests_unit-test_fixtures_android-world-clock-stopwatch-running.xml",
            "android/MunkiJeon__IVI_OS_Auto_var00__captured_xmls_source_Hipass_top.xml",
            "ios/KazuCocoa__appium-source-viewer__docs_sample_source.xml",
        ].map { Self.corpus.appendingPathComponent($0).path }
        let (summary, output) = try edit(daemon, files)
        XCTAssertGreaterThan(summary.edits, 60, output)
        XCTAssertEqual(summary.broken, 0, output)
        for kind in ["insert-top", "remove-row", "reorder", "change-text", "remove-text", "add-label", "reformat"] {
            XCTAssertTrue(output.contains(" \(kind)"), "no \(kind) edit was made: \(output)")
        }
    }

    /// Over every real dump of the corpus, what still moves is rare and of the kinds
    /// docs/findings.md names (a textless row counted from an edited neighbour, an id that
    /// stops being unique): at most 1 edit in 25, and reformatting never.
    func testEditsAcrossTheCorpusRarelyMoveAnotherElement() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        var files: [String] = []
        for folder in ["android", "ios"] {
            let directory = Self.corpus.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { directory.appendingPathComponent($0).path }
        }
        let (summary, output) = try edit(daemon, files)
        print("fingerprint edits: \(summary.broken) of \(summary.edits) moved another element's findings")
        XCTAssertGreaterThan(summary.edits, 400, output)
        XCTAssertLessThanOrEqual(summary.broken * 25, summary.edits, output)
        XCTAssertFalse(output.contains("MOVED: ") && output.split(separator: "\n").contains { $0.hasPrefix("MOVED: ") && $0.contains(" reformat:") }, output)
    }
}
