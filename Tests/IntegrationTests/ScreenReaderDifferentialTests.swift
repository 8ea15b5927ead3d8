import Foundation
import XCTest

/// auditd's transcripts against second, deliberately simple models of the readers written
/// straight from their rules (`ScreenReaders/talkback_reference.py` from TalkBack's
/// `AccessibilityNodeInfoUtils` and `ReorderedChildrenIterator`; `voiceover_reference.py`
/// from UIKit's accessibility contract as AccessibilitySnapshot reads it), over every real
/// capture of the fixtures: the same stops, the same names, the same order. Every
/// disagreement is explained in `ScreenReaders/*-explained.tsv` (what the capture holds and
/// why the models part) or it fails the test; so does an explanation that no longer matches.
final class ScreenReaderDifferentialTests: XCTestCase {
    static let folder = DaemonHarness.packageRoot.appendingPathComponent("Tests/IntegrationTests/ScreenReaders")
    static let fixtures = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures")

    func captures(_ platform: String) throws -> [String] {
        var files: [String] = []
        for set in ["corpus", "screens"] {
            let directory = Self.fixtures.appendingPathComponent(set).appendingPathComponent(platform)
            files += try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".xml") }.sorted()
                .map { directory.appendingPathComponent($0).path }
        }
        return files
    }

    func compare(reader: String, platform: String, minimumStops: Int) throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let files = try captures(platform)
        XCTAssertGreaterThan(files.count, 20)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let reference = try daemon.run("python3", [Self.folder.appendingPathComponent("\(reader)_reference.py").path] + files)
        XCTAssertEqual(reference.status, 0, reference.stderr)
        let product = try daemon.auditctl(["transcript", "--no-screenshots", "--format", "json"] + files)
        XCTAssertEqual(product.status, 0, product.stderr)
        let referenceFile = work.appendingPathComponent("reference.json"), productFile = work.appendingPathComponent("auditd.json")
        try reference.stdout.write(to: referenceFile, atomically: true, encoding: .utf8)
        try product.stdout.write(to: productFile, atomically: true, encoding: .utf8)
        let explained = Self.folder.appendingPathComponent("\(reader)-explained.tsv").path
        let compared = try daemon.run(
            "python3", [Self.folder.appendingPathComponent("differential.py").path, referenceFile.path, productFile.path, explained, "--report"])
        XCTAssertEqual(compared.status, 0, "unexplained disagreements with the \(reader) reference:\n" + compared.stdout + compared.stderr)
        // The totals line: both models found stops, and nearly all of them are the same.
        let totalsLine = try XCTUnwrap(compared.stdout.split(separator: "\n").first { $0.hasPrefix("{") }, compared.stdout)
        let totals = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(totalsLine.utf8)) as? [String: Int])
        let both = totals["both"] ?? 0, referenceStops = totals["reference"] ?? 0
        XCTAssertGreaterThan(both, minimumStops, compared.stdout)
        XCTAssertGreaterThanOrEqual(Double(both), 0.98 * Double(referenceStops), compared.stdout)
        XCTAssertEqual(totals["names"], both, "every stop both give has one name: \(compared.stdout)")
    }

    func testTalkBackTranscriptsAgreeWithTheReferenceOnEveryAndroidCapture() throws {
        try compare(reader: "talkback", platform: "android", minimumStops: 1_400)
    }

    func testVoiceOverTranscriptsAgreeWithTheReferenceOnEveryIOSCapture() throws {
        try compare(reader: "voiceover", platform: "ios", minimumStops: 250)
    }
}
