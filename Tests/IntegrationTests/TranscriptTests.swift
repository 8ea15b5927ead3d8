import AuditClient
import Foundation
import XCTest

/// Transcripts through the real daemon: `auditctl transcript` against goldens reviewed by
/// hand, the `/v1/transcripts` contract, and the transcript every audit journals.
final class TranscriptTests: XCTestCase {
    static let goldens = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/transcripts")
    /// The captures whose transcripts were read against TalkBack's and VoiceOver's rules
    /// (Tests/Fixtures/README.md says how).
    static let reviewed = [
        "Examples/android-login.xml", "Examples/checkout.xml", "Examples/notecards.xml",
        "Tests/Fixtures/corpus/android/ldi-github__shirates-builder__testData_xml_androidSettings1_54.xml",
        "Tests/Fixtures/corpus/android/ErickPenafiel__facebook-app-testing__login.xml",
        "Tests/Fixtures/screens/android/userVre__Darkor.ai__darkor_settings.xml",
        "Tests/Fixtures/screens/android/DiegoFM02__BTVideoStream-Extra__btvideo_menu.xml",
        "Tests/Fixtures/screens/android/iniakponode__driveafrica__drive_monitor.xml",
        "Tests/Fixtures/corpus/ios/kkolla06__autoRootly__raw_ios_xml_rootly-settings.xml",
        "Tests/Fixtures/corpus/ios/zeroG10__Test-project_flutter__qa_shared_recon-dumps_ios-2026-09-23_welcome.xml",
        "Tests/Fixtures/corpus/ios/kkolla06__autoRootly__raw_ios_xml_rootly-login_confirm.xml",
    ]

    func testTranscriptsMatchTheReviewedGoldens() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let update = ProcessInfo.processInfo.environment["AUDITD_UPDATE_GOLDEN"] == "1"
        for file in Self.reviewed {
            let run = try daemon.auditctl(["transcript", file], directory: DaemonHarness.packageRoot)
            XCTAssertEqual(run.status, 0, "\(file): \(run.stderr)")
            let golden = Self.goldens.appendingPathComponent(((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".txt")
            if update {
                try run.stdout.write(to: golden, atomically: true, encoding: .utf8)
                continue
            }
            XCTAssertEqual(run.stdout, try String(contentsOf: golden, encoding: .utf8), "\(file): regenerate with AUDITD_UPDATE_GOLDEN=1 after reviewing the change")
        }
    }

    /// With `--ocr`, TalkBack's text recognition on unlabelled stops: what OCR reads inside a
    /// stop with no name is "detected text" (TikTok's LIVE button, an icon with no
    /// description), apart from the speech; without OCR, nothing is detected.
    func testOCRGivesTheTextTalkBackDetectsOnUnlabelledStops() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let file = "Tests/Fixtures/screens/android/09franchico__auto-zap__tiktok_feed.xml"
        let run = try daemon.auditctl(["transcript", "--ocr", "--format", "json", file], directory: DaemonHarness.packageRoot)
        XCTAssertEqual(run.status, 0, run.stderr)
        let answer = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        let stops = try XCTUnwrap(answer["stops"] as? [[String: Any]])
        let live = try XCTUnwrap(stops.first { $0["detected_text"] as? String == "LIVE" }, "\(stops.map { $0["detected_text"] ?? "-" })")
        XCTAssertEqual(live["name"] as? String, "")
        XCTAssertEqual(live["speech"] as? String, "button")
        // Only unlabelled stops: every named one has none.
        XCTAssertTrue(stops.allSatisfy { ($0["name"] as? String ?? "").isEmpty || $0["detected_text"] is NSNull })
        let text = try daemon.auditctl(["transcript", "--ocr", file], directory: DaemonHarness.packageRoot)
        XCTAssertTrue(text.stdout.contains("button (Double-tap to activate) [detected text: LIVE]"), text.stdout)
        let plain = try daemon.auditctl(["transcript", file], directory: DaemonHarness.packageRoot)
        XCTAssertFalse(plain.stdout.contains("detected text"), plain.stdout)
    }

    func testTheRouteAnswersTheContractAndAuditsJournalTheirTranscript() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let xml = DaemonHarness.example("android-login.xml")
        let response = try daemon.request("POST /v1/transcripts HTTP/1.1\r\nHost: x\r\nContent-Length: \(xml.count)\r\n\r\n", body: xml)
        XCTAssertEqual(response.status, 200, response.text)
        let answer = try XCTUnwrap(response.json as? [String: Any])
        XCTAssertEqual(answer["reader"] as? String, "talkback")
        let stops = try XCTUnwrap(answer["stops"] as? [[String: Any]])
        let remember = try XCTUnwrap(stops.first { $0["name"] as? String == "Remember me" })
        XCTAssertEqual(remember["role"] as? String, "checkbox")
        XCTAssertEqual(remember["state"] as? [String], ["unchecked"])
        XCTAssertEqual(remember["speech"] as? String, "not checked, Remember me, checkbox")
        XCTAssertEqual(remember["usage_hint"] as? String, "Double-tap to toggle")
        XCTAssertEqual(answer["order"] as? String, "state-name-role")
        XCTAssertFalse((answer["not_in_capture"] as? [String] ?? []).isEmpty)
        // TalkBack's other description orders, by name; VoiceOver has none to choose.
        let ordered = try daemon.request(
            "POST /v1/transcripts?reader=talkback:name-role-state HTTP/1.1\r\nHost: x\r\nContent-Length: \(xml.count)\r\n\r\n", body: xml)
        let orderedStops = try XCTUnwrap((ordered.json as? [String: Any])?["stops"] as? [[String: Any]])
        XCTAssertTrue(orderedStops.contains { $0["speech"] as? String == "Remember me, checkbox, not checked" }, ordered.text)
        let noOrder = try daemon.request(
            "POST /v1/transcripts?reader=voiceover:state-name-role HTTP/1.1\r\nHost: x\r\nContent-Length: \(xml.count)\r\n\r\n", body: xml)
        XCTAssertEqual(noOrder.status, 400)
        XCTAssertTrue(noOrder.text.contains("accepted: voiceover:name-role-state"), noOrder.text)
        XCTAssertEqual(stops.map { $0["index"] as? Int }, Array(1...stops.count).map { $0 })
        // The same screen as VoiceOver would say it.
        let voiceOver = try daemon.request("POST /v1/transcripts?reader=voiceover HTTP/1.1\r\nHost: x\r\nContent-Length: \(xml.count)\r\n\r\n", body: xml)
        XCTAssertEqual((voiceOver.json as? [String: Any])?["reader"] as? String, "voiceover")
        let bad = try daemon.request("POST /v1/transcripts?reader=jaws HTTP/1.1\r\nHost: x\r\nContent-Length: \(xml.count)\r\n\r\n", body: xml)
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.text.contains("bad-reader"), bad.text)
        let broken = Array("<hierarchy><node".utf8)
        let refused = try daemon.request("POST /v1/transcripts HTTP/1.1\r\nHost: x\r\nContent-Length: \(broken.count)\r\n\r\n", body: broken)
        XCTAssertEqual(refused.status, 400)
        // An audit of the same screen journals the same transcript digest.
        XCTAssertEqual(try daemon.post(xml).status, 200)
        let audit = try XCTUnwrap(daemon.journalRecords().first { $0["type"] as? String == "audit" })
        let journalled = try XCTUnwrap(audit["transcript"] as? [String: Any])
        XCTAssertEqual(journalled["digest"] as? String, answer["digest"] as? String)
        XCTAssertEqual(journalled["stops"] as? Int, stops.count)
        XCTAssertEqual(journalled["speech"] as? [String], stops.compactMap { $0["speech"] as? String })
    }
}
