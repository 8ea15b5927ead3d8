import AuditCore
import AuditOCR
import Foundation
import XCTest

/// OCR of real pixels (Tesseract, docs/ocr.md) and the `text.*` rules on what it reads: a
/// screen drawn by the project's image script with text the dump has, text it lacks, a
/// label cut off with an ellipsis, one clipped by its frame with none, and lettering
/// inside an image.
final class OCRTests: XCTestCase {
    func screen() throws -> Snapshot {
        let images = try TestImages.make([
            "screen.png": [
                "width": 1080, "height": 1200, "background": "#FFFFFF",
                "shapes": [
                    ["kind": "text", "at": [60, 80], "text": "Settings", "size": 64, "color": "#000000"],
                    ["kind": "text", "at": [60, 300], "text": "Daily streak bonus", "size": 56, "color": "#202020"],
                    ["kind": "text", "at": [60, 520], "text": "Conversations wi…", "size": 56, "color": "#000000"],
                    // Drawn whole, then clipped by its element's frame (x 60…500, through the "a"): no ellipsis.
                    ["kind": "text", "at": [60, 650], "text": "Notifications and sounds", "size": 56, "color": "#000000"],
                    ["kind": "rect", "box": [500, 630, 580, 100], "color": "#FFFFFF"],
                    ["kind": "rect", "box": [40, 760, 1000, 300], "color": "#1E3A8A"],
                    ["kind": "text", "at": [100, 860], "text": "SUMMER SALE", "size": 72, "color": "#FFFFFF"],
                ],
            ]
        ])
        let snapshot = try TestImages.dump(
            width: 1080, height: 1200,
            TestImages.textNode("title", "Settings", (60, 70, 400, 100))
                + #"<node index="1" text="" resource-id="canvas" class="android.view.View" package="com.example" enabled="true" bounds="[40,260][1040,420]"/>"#
                + TestImages.textNode("thread", "Conversations with Alice and Bob", (60, 500, 560, 100))
                + TestImages.textNode("alerts", "Notifications and sounds", (60, 630, 440, 100))
                + #"<node index="3" text="" content-desc="Banner" resource-id="banner" class="android.widget.ImageView" package="com.example" enabled="true" bounds="[40,760][1040,1060]"/>"#
        )
        return try snapshot.attaching(ImageDecoder.decode(TestImages.bytes(images["screen.png"])))
    }

    func testTheRulesJudgeWhatTesseractReads() throws {
        let snapshot = try screen()
        let recognition = try TextRecognizer().recognize(try XCTUnwrap(snapshot.screenshot), seconds: 30)
        XCTAssertNil(recognition.incomplete)
        let read = recognition.lines.map(\.text).joined(separator: " | ")
        XCTAssertTrue(read.contains("Daily streak bonus"), read)

        let rules = RuleSet(name: "ocr", entries: []).including([TextUnexposedRule.self, TextTruncatedRule.self])
        let report = Auditor.audit(snapshot.recognizing(recognition), ruleSet: rules)
        var found: [String] = []
        for placed in report.findings {
            let id = TestSupport.id(of: placed, in: snapshot) ?? "-"
            let text = placed.finding.evidence("text")?.stringValue ?? ""
            found.append("\(placed.finding.resultID) \(id) \(text)")
        }
        found.sort()
        // Drawn and in no element: the canvas's words, an error (two words, read surely).
        XCTAssertTrue(found.contains("unexposed canvas Daily streak bonus"), "\(found)")
        // Cut off: the thread's title shows "Conversations wi…" of its whole text.
        XCTAssertTrue(found.contains { $0.hasPrefix("truncated thread Conversations wi") }, "\(found)")
        // Clipped by its frame with no ellipsis: ink crosses the element's right edge.
        XCTAssertTrue(found.contains { $0.hasPrefix("cut alerts Notifications") }, "\(found)")
        // Lettering inside the banner image: a notice, not an error.
        XCTAssertTrue(found.contains("text-in-image banner SUMMER SALE"), "\(found)")
        // "Settings" is the title's own text: exposed.
        XCTAssertFalse(found.contains { $0.contains("Settings") }, "\(found)")
        XCTAssertEqual(report.findings.first { $0.finding.resultID == "text-in-image" }?.finding.severity, .notice)
    }

    /// Tesseract is opened with dlopen, not linked: the daemon does not carry it until OCR is
    /// asked for, and a library that cannot be opened is a reason in words, not a crash.
    func testTesseractIsOpenedWhenAskedForAndAMissingLibraryIsAReason() throws {
        switch TesseractLibrary.load(TesseractLibrary.names) {
        case .success: break
        case .failure(let problem): XCTFail("Tesseract should load on a machine scripts/setup prepared: \(problem.description)")
        }
        switch TesseractLibrary.load(["libtesseract-absent.so.0"]) {
        case .success: XCTFail("a library that does not exist was loaded")
        case .failure(let problem):
            XCTAssertTrue(problem.description.contains("libtesseract-absent.so.0"), problem.description)
            XCTAssertTrue(problem.description.contains("install libtesseract5"), problem.description)
        }
        // A library without Tesseract's functions names the first one missing.
        switch TesseractLibrary.load(["libxml2.so.2"]) {
        case .success: XCTFail("libxml2 was taken for Tesseract")
        case .failure(let problem): XCTAssertTrue(problem.description.contains("has no TessBaseAPICreate"), problem.description)
        }
    }

    func testWithoutOCRTheRulesAreIncompleteNotPassed() throws {
        let snapshot = try screen()
        let report = Auditor.audit(snapshot, ruleSet: .only(TextUnexposedRule.self))
        XCTAssertTrue(report.findings.isEmpty)
        XCTAssertTrue(report.incomplete.contains { $0.incomplete.reason.contains("?ocr=1") }, "\(report.incomplete.map(\.incomplete.reason))")
    }

    func testADeadlineStopsTheEngineAndSaysSo() throws {
        let snapshot = try screen()
        let recognition = try TextRecognizer().recognize(try XCTUnwrap(snapshot.screenshot), seconds: 0.001, shouldStop: { true })
        XCTAssertNotNil(recognition.incomplete)
        let report = Auditor.audit(snapshot.recognizing(recognition), ruleSet: .only(TextTruncatedRule.self))
        XCTAssertTrue(report.findings.isEmpty)
        XCTAssertTrue(report.incomplete.contains { $0.incomplete.reason.contains("OCR stopped") }, "\(report.incomplete.map(\.incomplete.reason))")
    }
}
