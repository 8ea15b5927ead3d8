import AuditCore
import Foundation
import XCTest

/// Issue 25's verdicts, read by hand on real captures of Tests/Fixtures (the XML, and the
/// pixels where there is a screenshot): what a screen reader hears decides the label rules,
/// what is not the app's is no rule's, a rule that cannot see its input says so, and a
/// finding's column is where an editor puts it.
final class ActionableFindingsTests: XCTestCase {
    static let library = Result { try RuleSetLibrary.load(directories: [TestSupport.packageRoot.appendingPathComponent("Rules").path]) }

    func audit(_ path: String, in folder: URL = TestSupport.corpus) throws -> (Snapshot, AuditReport) {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
        let snapshot = try SnapshotParser().parse(bytes)
        let ruleSet = try XCTUnwrap(try Self.library.get().defaultSet(for: snapshot.platform))
        return (snapshot, Auditor.audit(snapshot, ruleSet: ruleSet))
    }

    func findings(_ report: AuditReport, _ rule: String) -> [AuditReport.Located] {
        report.findings.filter { $0.finding.ruleID == rule }
    }

    /// Spoon: "Content thumbnail", "image badge", "Icon" on every card are plain texts the
    /// row gives context to; the repeated controls ("action" ×3 siblings, "Preview content")
    /// stay, as warnings.
    func testRepeatedPlainTextsAreNotFindings() throws {
        let (_, report) = try audit("android/helloahram__spoon_live__main_page_source.xml")
        let duplicates = findings(report, "label.duplicate")
        XCTAssertTrue(duplicates.allSatisfy { $0.finding.severity == .warning }, "\(duplicates.map(\.finding.severity))")
        let labels = Set(duplicates.compactMap { $0.finding.evidence("label")?.stringValue })
        XCTAssertTrue(labels.contains("action"), "\(labels)")
        for plain in ["Content thumbnail", "image badge", "Icon", "Image Profile"] { XCTAssertFalse(labels.contains(plain), plain) }
    }

    /// Zomato: the close glyph's own content description is what TalkBack says; glyphs on
    /// their own clickable text views (the stepper's + and −) are what it says, unreadable.
    func testGlyphsAreJudgedByWhatIsSaid() throws {
        let (_, report) = try audit("android/devjayswal__App_Scrapper_and_Extracter__offer_page.xml")
        XCTAssertFalse(findings(report, "label.unreadable").contains { $0.elementID == "com.application.zomato:id/crossButton" })
        let (_, summary) = try audit("android/devjayswal__App_Scrapper_and_Extracter__summury_page.xml")
        let glyphs = findings(summary, "label.unreadable").filter { $0.finding.resultID == "private-use-glyph" }
        XCTAssertTrue(glyphs.contains { $0.elementID == "com.application.zomato:id/button_add" })
        // The pill's glyph beside its instruction text: the pill says the text.
        XCTAssertFalse(glyphs.contains { $0.elementID == "com.application.zomato:id/pillview_icon" })
    }

    /// Greenbro: a focusable view described by its glyph is one stop; the glyph text inside
    /// it is never reached, so it is reported once, on the stop.
    func testAGlyphInsideAFocusableStopIsReportedOnTheStop() throws {
        let (snapshot, report) = try audit(
            "android/Bradley-svg__GB-Mobile-Application--Android---iOS-__greenbro_portfolio.xml",
            in: TestSupport.fixtures.appendingPathComponent("screens"))
        let glyphs = findings(report, "label.unreadable").filter { $0.finding.resultID == "private-use-glyph" }
        XCTAssertFalse(glyphs.isEmpty)
        for glyph in glyphs {
            let element = try XCTUnwrap(glyph.finding.element)
            XCTAssertEqual(snapshot.elements[element].focusable, true, "\(glyph.path ?? "")")
        }
    }

    /// UICatalog's menu rows are titled "TextFields", "SearchBar": drawn on screen, read by
    /// everyone alike; only a name a reader alone hears can be a leaked identifier.
    func testTextDrawnOnScreenIsNotAnIdentifier() throws {
        let (_, report) = try audit("ios/KazuCocoa__appium-source-viewer__docs_sample_source.xml")
        XCTAssertTrue(findings(report, "label.unreadable").isEmpty, "\(findings(report, "label.unreadable").map(\.finding.evidence))")
        let (_, login) = try audit("android/nabeykoon__appiumTestProject__pageSource.xml")
        XCTAssertEqual(findings(login, "label.unreadable").map { $0.finding.evidence("name")?.stringValue }, ["loginBtn"])
    }

    /// TikTok's feed: the action column's frames (the comment icon's frame inside "Leia ou
    /// adicione comentários. 329 comentários", the share icon's inside "Compartilhar vídeo",
    /// the sound disc's inside "Som: …") say nothing and are no stops; the share icon itself,
    /// a clickable leaf with no name, is TalkBack's stop "unlabelled" and stays a finding.
    func testFramesInsideANamedFeedControlAreNotUnlabelled() throws {
        let (_, report) = try audit("android/09franchico__auto-zap__tiktok_feed.xml", in: TestSupport.fixtures.appendingPathComponent("screens"))
        let missing = Set(findings(report, "label.missing").compactMap(\.elementID))
        for frame in ["coy", "oxz", "keg"] {
            XCTAssertFalse(missing.contains("com.zhiliaoapp.musically:id/\(frame)"), frame)
        }
        for leaf in ["oyc", "tta", "rgc"] {
            XCTAssertTrue(missing.contains("com.zhiliaoapp.musically:id/\(leaf)"), "\(leaf): \(missing.sorted())")
        }
    }

    /// Google Tasks captured mid-transition: its page (the app bar and the task list) twice,
    /// side by side under `android:id/content`, the second a copy of the first. Said once,
    /// on the second copy; and no capture of the corpus, nor a page over a different one, is
    /// said to be two copies.
    func testTwoCopiesOfAPageInOneCaptureAreSaid() throws {
        let source = try String(contentsOf: TestSupport.corpus.appendingPathComponent("android/tinmaungzin__google-tasks-crawler__hierarchy.xml"), encoding: .utf8)
            .replacingOccurrences(of: "\r\n", with: "\n")
        var lines = source.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.contains("id/app_bar_coordinator") })
        let indent = lines[start].prefix { $0 == " " }
        let end = try XCTUnwrap(lines[(start + 1)...].firstIndex { $0 == indent + "</node>" })
        lines.insert(contentsOf: lines[start...end], at: end + 1)
        let library = try Self.library.get()
        func copies(_ xml: String) throws -> [AuditReport.Located] {
            let snapshot = try SnapshotParser().parse(Array(xml.utf8))
            let report = Auditor.audit(snapshot, ruleSet: try XCTUnwrap(library.defaultSet(for: snapshot.platform)))
            return findings(report, "snapshot.unauditable").filter { $0.finding.resultID == "two-copies" }
        }
        let said = try copies(lines.joined(separator: "\n"))
        XCTAssertEqual(said.count, 1)
        XCTAssertEqual(said.first?.line, end + 2, "reported on the second copy")
        XCTAssertEqual(said.first?.finding.severity, .warning)
        XCTAssertEqual(said.first?.finding.evidence("other")?.stringValue, "com.google.android.apps.tasks:id/app_bar_coordinator")
        // The same layout showing another list (its rows and ids not the first's) is two pages.
        let other = lines[start...end].map { $0.replacingOccurrences(of: "Task ", with: "Errand ").replacingOccurrences(of: ":id/", with: ":id/other_") }
        lines = source.components(separatedBy: "\n")
        lines.insert(contentsOf: other, at: end + 1)
        XCTAssertEqual(try copies(lines.joined(separator: "\n")).count, 0)
        // Not one real capture of the corpus is said to hold two copies.
        for folder in ["corpus/android", "corpus/ios", "screens/android", "screens/ios"] {
            let directory = TestSupport.fixtures.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".xml") {
                let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
                guard let said = try? copies(String(decoding: bytes, as: UTF8.self)) else { continue }
                XCTAssertEqual(said.count, 0, "\(folder)/\(name)")
            }
        }
    }

    /// Gmail with its search opened: the search page (drawing-order 5, full screen, its own
    /// suggestions list) is drawn over the inbox, whose rows and toolbar nobody sees or
    /// reaches — covered, left out and counted. Its back arrow and the drawer button below
    /// it are no spacing finding, its rows no hidden-control finding.
    func testContentCoveredByAPageDrawnAboveIsLeftOut() throws {
        let (snapshot, report) = try audit("android/Bioto__tron-ai__page_source.xml")
        XCTAssertTrue(snapshot.notes.contains { $0.contains("covered by a full-screen page") }, "\(snapshot.notes)")
        let list = try XCTUnwrap(snapshot.elements.indices.first { snapshot.text(snapshot.elements[$0].id) == "com.google.android.gm:id/thread_list_view" })
        XCTAssertTrue(snapshot.elements[list].covered)
        let search = try XCTUnwrap(snapshot.elements.indices.first { snapshot.text(snapshot.elements[$0].id) == "com.google.android.gm:id/open_search_view_content_container" })
        XCTAssertFalse(snapshot.elements[search].covered)
        XCTAssertTrue(report.findings.allSatisfy { $0.finding.element.map { !snapshot.elements[$0].covered } ?? true })
        XCTAssertTrue(findings(report, "screen-reader.hidden-control").isEmpty)
    }

    /// A drawer of apps (drawing-order 2) over a workspace: the workspace's small icon is not
    /// judged. A full-screen overlay holding only a floating button covers nothing; neither does
    /// a later full-screen element where no drawing order is stated.
    func testOnlyAPageWithContentCovers() throws {
        func doc(_ overlay: String) -> String {
            ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.FrameLayout" package="com.example" drawing-order="1" bounds="[0,0][1080,2400]"><node resource-id="icon" class="android.widget.ImageButton" package="com.example" clickable="true" enabled="true" bounds="[100,100][160,160]"/></node>"##
                + overlay + "</node></hierarchy>"
        }
        let cell = ##"<node class="android.widget.TextView" text="App" package="com.example" clickable="true" enabled="true" bounds="[0,300][270,500]"/>"##
        let drawer =
            ##"<node class="android.widget.RelativeLayout" package="com.example" drawing-order="2" bounds="[0,0][1080,2400]"><node class="android.widget.GridView" package="com.example" bounds="[0,200][1080,2400]">"##
            + String(repeating: cell, count: 6) + "</node></node>"
        let fab =
            ##"<node class="android.widget.FrameLayout" package="com.example" drawing-order="2" bounds="[0,0][1080,2400]"><node class="android.widget.ImageButton" content-desc="Compose" package="com.example" clickable="true" enabled="true" bounds="[800,2000][1000,2200]"/></node>"##
        let ruleSet = try XCTUnwrap(try Self.library.get().defaultSet(for: .android))
        for (overlay, covered) in [(drawer, true), (fab, false), (drawer.replacingOccurrences(of: #" drawing-order="2""#, with: ""), false)] {
            let snapshot = try SnapshotParser().parse(Array(doc(overlay).utf8))
            let report = Auditor.audit(snapshot, ruleSet: ruleSet)
            // Its size (the target rules skip it) and its missing name (the auditor leaves the
            // finding out, and counts it).
            for rule in ["target-size", "label.missing"] {
                let icon = report.findings.filter { $0.elementID == "icon" && $0.finding.ruleID == rule }
                XCTAssertEqual(icon.isEmpty, covered, "\(rule), covered \(covered): \(report.findings.map(\.finding.ruleID))")
            }
            XCTAssertEqual(report.notes.contains { $0.contains("findings on covered content left out") }, covered, "\(report.notes)")
        }
    }

    /// UiAutomator2's a11y-important="false" is on views TalkBack reads (Gmail's search field
    /// and drawer button): not judged, and said so, never a finding.
    func testAndroidImportanceIsNotEvidence() throws {
        let xml =
            ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="menu" class="android.widget.ImageButton" content-desc="Open navigation drawer" package="com.example" clickable="true" enabled="true" a11y-important="false" bounds="[0,100][168,268]"/></node></hierarchy>"##
        let snapshot = try SnapshotParser().parse(Array(xml.utf8))
        let report = Auditor.audit(snapshot, ruleSet: try XCTUnwrap(try Self.library.get().defaultSet(for: .android)))
        XCTAssertTrue(findings(report, "screen-reader.hidden-control").isEmpty)
        XCTAssertTrue(report.incomplete.contains { $0.incomplete.ruleID == "screen-reader.hidden-control" && $0.incomplete.reason.contains("a11y-important") })
    }

    /// A dump of Play services' password sheet alone holds no app: said once, as a warning,
    /// with no finding on the system's nodes.
    func testACaptureOfTheSystemAloneIsSaidToBeSo() throws {
        let (_, report) = try audit("android/ErickPenafiel__facebook-app-testing__google_password_modal.xml")
        let unauditable = findings(report, "snapshot.unauditable")
        XCTAssertEqual(unauditable.map(\.finding.resultID), ["system-only"])
        XCTAssertEqual(unauditable.first?.finding.severity, .warning)
        XCTAssertEqual(report.findings.count, 1, "\(report.findings.map(\.finding.ruleID))")
    }

    /// Dumps carry no fonts or animations: the Dynamic Type and motion rules say they could
    /// not judge, never pass in silence.
    func testRulesThatCannotSeeTheirInputSaySo() throws {
        for path in ["android/Bioto__tron-ai__page_source.xml", "ios/KazuCocoa__appium-source-viewer__docs_sample_source.xml"] {
            let (_, report) = try audit(path)
            let unjudged = Set(report.incomplete.filter { $0.incomplete.element == nil }.map(\.incomplete.ruleID))
            for rule in ["text-scaling.fixed-size", "text-scaling.truncated", "motion.reduce-motion", "motion.autoplay"]
            where
                try Self.library.get().defaultSet(for: report.platform)?.entries.contains(where: { $0.id == rule }) == true
            {
                XCTAssertTrue(unjudged.contains(rule), "\(path): \(rule) passed in silence")
            }
        }
    }

    /// XCUITest reports whole frames, never cut by a scroller: a small target touching a
    /// table's edge is measured, not incomplete.
    func testXCUITestFramesAreNotCutByScrollers() throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: TestSupport.corpus.appendingPathComponent("ios").path) where file.hasSuffix(".xml") {
            let (_, report) = try audit("ios/" + file)
            XCTAssertFalse(report.incomplete.contains { $0.incomplete.reason.contains("edge of the scrolling") }, file)
        }
    }

    /// Columns count code points: on a one-line dump of Chinese text, each node's column is
    /// where an editor (and SARIF's `unicodeCodePoints`) puts its `<`.
    func testColumnsAreCodePointsOnAOneLineDumpOfChineseText() throws {
        let xml =
            ##"<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" text="企业微信通讯录 😀 选填" package="com.example" bounds="[0,0][1080,200]"/><node resource-id="b" class="android.widget.ImageButton" package="com.example" clickable="true" enabled="true" bounds="[0,300][60,360]"/></node></hierarchy>"##
        let snapshot = try SnapshotParser().parse(Array(xml.utf8))
        let report = Auditor.audit(snapshot, ruleSet: try XCTUnwrap(try Self.library.get().defaultSet(for: .android)))
        let finding = try XCTUnwrap(report.findings.first { $0.elementID == "b" })
        let scalars = Array(xml.unicodeScalars)
        let marker = Array(#"<node resource-id="b""#.unicodeScalars)
        let expected = try XCTUnwrap((0...(scalars.count - marker.count)).first { Array(scalars[$0..<$0 + marker.count]) == marker }) + 1
        XCTAssertEqual(finding.line, 1)
        XCTAssertEqual(finding.column, expected)
        // In bytes the column would be later: every CJK character is three bytes, the emoji four.
        let bytes = Array(xml.utf8), markerBytes = Array(#"<node resource-id="b""#.utf8)
        let byteColumn = try XCTUnwrap((0...(bytes.count - markerBytes.count)).first { Array(bytes[$0..<$0 + markerBytes.count]) == markerBytes }) + 1
        XCTAssertGreaterThan(byteColumn, expected)
    }
}
