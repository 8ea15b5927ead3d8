@testable import AuditCore
import Foundation
import XCTest

/// The direct report writer: valid JSON by an independent parser, finding ranges that
/// hold exactly each finding's fields, escaping of hostile strings.
final class ReportWriterTests: XCTestCase {
    func object(_ bytes: some Collection<UInt8>) throws -> NSDictionary {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary)
    }

    func testEveryExampleRendersValidJSONWithFindingRanges() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestSupport.examples.path).filter { $0.hasSuffix(".xml") }
        XCTAssertGreaterThanOrEqual(names.count, 7)
        var findingsSeen = 0
        for name in names.sorted() {
            let bytes = [UInt8](try Data(contentsOf: TestSupport.examples.appendingPathComponent(name)))
            let report = Auditor.audit(try SnapshotParser().parse(bytes), ruleSet: .allBuiltIn)
            let rendered = report.rendered()
            let whole = try object(rendered.bytes)
            let findings = try XCTUnwrap(whole["findings"] as? [NSDictionary], name)
            XCTAssertEqual(findings.count, report.findings.count, name)
            XCTAssertEqual(rendered.findingFields.count, report.findings.count, name)
            for (index, finding) in findings.enumerated() {
                let alone = try object([UInt8(ascii: "{")] + rendered.fields(ofFinding: index) + [UInt8(ascii: "}")])
                XCTAssertEqual(alone, finding, "\(name) finding \(index)")
                XCTAssertEqual(finding["rule"] as? String, report.findings[index].finding.ruleID)
                XCTAssertEqual(finding["fingerprint"] as? String, report.findings[index].fingerprint)
            }
            XCTAssertEqual(try object(rendered.bytes[rendered.summary]), whole["summary"] as? NSDictionary, name)
            let summary = try XCTUnwrap(whole["summary"] as? NSDictionary)
            XCTAssertEqual(summary["error"] as? Int, report.count(.error))
            XCTAssertEqual(summary["warning"] as? Int, report.count(.warning))
            findingsSeen += findings.count
        }
        XCTAssertGreaterThan(findingsSeen, 20)
    }

    func testRunsWrittenByTheAuditMatchFindingsWrittenOneByOne() throws {
        // Enough elements to audit in parallel and enough findings for several chunks of
        // the audit's placing: 2,100 small unlabelled buttons, two of them suppressed.
        var xml = ##"<snapshot version="1" platform="ios" width="390" height="844"><element role="window" frame="0,0,390,844" background="#FFFFFF">"##
        for index in 0..<2_100 {
            let ignore = index % 1_000 == 7 ? #" a11y-ignore="*""# : ""
            xml += #"<element id="b\#(index)" role="button" frame="\#(index % 10 * 30),\#(index / 10 * 30),20,20"\#(ignore)/>"#
        }
        xml += "</element></snapshot>"
        var report = Auditor.audit(try TestSupport.parse(xml), ruleSet: .allBuiltIn)
        XCTAssertGreaterThan(report.findings.count, 2_000)
        XCTAssertGreaterThan(report.renderedFindings.count, 2)
        XCTAssertGreaterThan(report.suppressedTotal, 0)
        let fromRuns = report.rendered()
        report.renderedFindings = []
        let oneByOne = report.rendered()
        XCTAssertEqual(fromRuns.bytes, oneByOne.bytes)
        XCTAssertEqual(fromRuns.findingFields, oneByOne.findingFields)
    }

    /// A large report keeps the audit's runs as pieces (the answer and the journal write
    /// them as they are): joined, byte for byte the report written in one buffer, each
    /// finding's fields found in its piece — also when the report's first chunk of
    /// findings was suppressed whole and the first run begins with a comma.
    func testARunsReportInPiecesIsTheSameReport() throws {
        for ignoredFirst in [0, 400] {
            var xml = ##"<snapshot version="1" platform="ios" width="390" height="844"><element role="window" frame="0,0,390,844" background="#FFFFFF">"##
            for index in 0..<2_100 {
                let ignore = index < ignoredFirst ? #" a11y-ignore="*""# : ""
                xml += #"<element id="b\#(index)" role="button" frame="\#(index % 10 * 30),\#(index / 10 * 30),20,20"\#(ignore)/>"#
            }
            xml += "</element></snapshot>"
            var report = Auditor.audit(try TestSupport.parse(xml), ruleSet: .allBuiltIn)
            let whole = ReportWriter.render(report, segmentingFrom: .max)
            let pieces = ReportWriter.render(report, segmentingFrom: 1)
            XCTAssertEqual(whole.pieces.count, 1)
            XCTAssertEqual(pieces.pieces.count, report.renderedFindings.count + 1, "the head with the first run, each other run, the tail")
            XCTAssertEqual(pieces.bytes, whole.bytes, "ignoring the first \(ignoredFirst)")
            XCTAssertEqual(pieces.count, whole.count)
            XCTAssertEqual(pieces.findingFields.count, whole.findingFields.count)
            for index in whole.findingFields.indices {
                XCTAssertEqual(pieces.fields(ofFinding: index), whole.fields(ofFinding: index), "finding \(index)")
            }
            XCTAssertEqual(pieces.summaryBytes, whole.summaryBytes)
            XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(pieces.bytes)))
            report.renderedFindings = []
            XCTAssertEqual(report.rendered().bytes, whole.bytes, "written one by one")
        }
    }

    /// An audit given a spill puts the runs written past its size in the spill's file
    /// (never the first), and the rendered report has them back once read: byte for byte
    /// the report of the same audit held whole — with a few runs suppressed whole, and
    /// when the spill's directory cannot take a file (nothing spilled, the same report).
    func testAReportWhoseFindingsWereSpilledReadsBackTheSameBytes() throws {
        var xml = ##"<snapshot version="1" platform="ios" width="390" height="844"><element role="window" frame="0,0,390,844" background="#FFFFFF">"##
        for index in 0..<3_000 {
            let ignore = (1_000..<1_600).contains(index) ? #" a11y-ignore="*""# : ""
            xml += #"<element id="b\#(index)" role="button" frame="\#(index % 10 * 30),\#(index / 10 * 30),20,20"\#(ignore)/>"#
        }
        xml += "</element></snapshot>"
        let snapshot = try TestSupport.parse(xml)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (place, after) in [(directory, 1), (directory, 20_000), (directory + "/missing", 1)] {
            let held = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
            let file = SpillFile(directory: place)
            let spilled = Auditor.audit(snapshot, ruleSet: .allBuiltIn, spill: Auditor.Spill(file: file, afterBytes: after))
            XCTAssertEqual(spilled.findings.count, held.findings.count)
            XCTAssertGreaterThan(spilled.renderedFindings.count, 3)
            var rendered = spilled.rendered()
            let whole = held.rendered()
            if place == directory {
                XCTAssertTrue(rendered.hasSpilledPieces, "spilled after \(after) bytes")
                XCTAssertGreaterThan(file.byteCount, after)
                XCTAssertLessThan(file.byteCount, whole.count, "the first run is never spilled")
            } else {
                XCTAssertFalse(rendered.hasSpilledPieces, "no file, nothing spilled")
                XCTAssertEqual(file.byteCount, 0)
            }
            try rendered.readSpilled()
            XCTAssertFalse(rendered.hasSpilledPieces)
            XCTAssertEqual(rendered.findingFields.count, whole.findingFields.count)
            for index in whole.findingFields.indices {
                XCTAssertEqual(rendered.fields(ofFinding: index), whole.fields(ofFinding: index), "finding \(index)")
            }
            // The same report but for its id and duration.
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(rendered.bytes)) as? [String: Any])
            let reference = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(whole.bytes)) as? [String: Any])
            XCTAssertEqual(Set(json.keys), Set(reference.keys))
            for key in json.keys where !["audit", "duration_ms"].contains(key) {
                XCTAssertEqual(json[key] as? NSObject, reference[key] as? NSObject, key)
            }
            XCTAssertEqual((json["suppressed"] as? [String: Int])?.values.reduce(0, +), 600, "a finding on each ignored button")
        }
    }

    /// A writer reuses what it wrote: an element's fields for its next findings, a kind's
    /// message and evidence for the next finding with the same evidence bytes, an element's
    /// fingerprint keys. Every finding written in one writer after all the others is byte
    /// for byte what a fresh writer writes for it alone, with the same fingerprint and
    /// defect — on a screen where reuse happens (identical frames, several findings per
    /// element, findings about the screen) and where it must not (same evidence, other kind;
    /// same kind, other evidence; a finding after another element's).
    func testAWriterReusingWhatItWroteWritesWhatAFreshOneWould() throws {
        var xml = ##"<snapshot version="1" platform="ios" width="390" height="844"><element role="window" frame="0,0,390,844" background="#FFFFFF">"##
        for index in 0..<300 {
            // Identical small frames, and every fourth one elsewhere; names repeated and not.
            let frame = index % 4 == 3 ? "\(index % 7 * 40),\(index / 7 * 30 % 800),\(20 + index % 3),30" : "10,10,30,30"
            let label = index % 5 == 0 ? "" : #" label="\#(index % 2 == 0 ? "Item" : "Item \(index)")""#
            xml += ##"<element id="b\##(index % 50)" role="button" frame="\##(frame)"\##(label) foreground="#D1D1D6"/>"##
        }
        xml += "</element></snapshot>"
        let snapshot = try TestSupport.parse(xml)
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        XCTAssertGreaterThan(report.findings.count, 250)
        var written = ReportWriter.Output(bytes: [UInt8]())
        var repeatedTails = 0, repeatedElements = 0
        var previous: (element: Int?, tail: String, kind: ObjectIdentifier)?
        for index in report.findings.indices {
            let located = report.findings[index]
            let start = written.bytes.count
            let identity = ReportWriter.writeFields(of: located.finding, in: snapshot, to: &written)
            var alone = ReportWriter.Output(bytes: [UInt8]())
            let aloneIdentity = ReportWriter.writeFields(of: located.finding, in: snapshot, to: &alone)
            XCTAssertEqual(
                String(decoding: written.bytes[start...], as: UTF8.self), String(decoding: alone.bytes, as: UTF8.self),
                "finding \(index): \(located.finding.ruleID)")
            XCTAssertEqual(identity.fingerprint, aloneIdentity.fingerprint, "finding \(index)")
            XCTAssertEqual(identity.defect, aloneIdentity.defect, "finding \(index)")
            let tail = located.finding.message + "\(located.finding.evidence.map { "\($0.0.rawValue)=\($0.1)" })"
            let kind = ObjectIdentifier(located.finding.kind)
            if let previous, previous.kind == kind, previous.tail == tail { repeatedTails += 1 }
            if let previous, let element = located.finding.element, previous.element == element { repeatedElements += 1 }
            previous = (located.finding.element, tail, kind)
        }
        XCTAssertGreaterThan(repeatedTails, 50, "findings one after another with one kind and the same evidence")
        XCTAssertGreaterThan(repeatedElements, 40, "findings one after another on one element")
        XCTAssertTrue(report.findings.indices.contains { report.findings[$0].finding.element == nil }, "a finding about the screen")
    }

    /// Findings whose evidence cycles — each row of stacked sections has the same bounds as
    /// its twin in the first section — are written from the writer's earlier tails: each as
    /// a fresh writer writes it, on a screen where most tails repeat one that is not the last.
    func testAWriterReusingEarlierTailsWritesWhatAFreshOneWould() throws {
        var xml = ##"<snapshot version="1" platform="ios" width="390" height="844"><element role="window" frame="0,0,390,844">"##
        for section in 0..<12 {
            xml += ##"<element id="s\##(section)" role="container" frame="0,0,390,3000">"##
            for row in 0..<(section % 3 == 2 ? 70 : 40) {
                xml += ##"<element id="s\##(section)-r\##(row)" role="button" label="Row \##(row)" frame="0,\##(row * 60),390,60"/>"##
            }
            xml += "</element>"
        }
        xml += "</element></snapshot>"
        let snapshot = try TestSupport.parse(xml)
        let report = Auditor.audit(snapshot, ruleSet: .allBuiltIn)
        var written = ReportWriter.Output(bytes: [UInt8]())
        var seen: [String: Int] = [:]
        var repeatsOfEarlier = 0
        var last: String?
        for index in report.findings.indices {
            let finding = report.findings[index].finding
            let start = written.bytes.count
            let identity = ReportWriter.writeFields(of: finding, in: snapshot, to: &written)
            var alone = ReportWriter.Output(bytes: [UInt8]())
            let aloneIdentity = ReportWriter.writeFields(of: finding, in: snapshot, to: &alone)
            XCTAssertEqual(
                String(decoding: written.bytes[start...], as: UTF8.self), String(decoding: alone.bytes, as: UTF8.self),
                "finding \(index): \(finding.ruleID)")
            XCTAssertEqual(identity.fingerprint, aloneIdentity.fingerprint, "finding \(index)")
            let tail = finding.ruleID + "|" + finding.message + "\(finding.evidence.map { "\($0.0.rawValue)=\($0.1)" })"
            if seen[tail] != nil, tail != last { repeatsOfEarlier += 1 }
            seen[tail, default: 0] += 1
            last = tail
        }
        XCTAssertGreaterThan(repeatsOfEarlier, 300, "findings repeating an evidence that is not the last of their kind")
    }

    /// Bytes written again are a copy of the ones at the range, in both byte stores, also
    /// when the store grows to make room for them.
    func testBytesWrittenAgainAreACopyOfTheRange() {
        var array: [UInt8] = Array("0123456789".utf8)
        var buffer = ByteBuffer(capacity: 16)
        buffer.write(contentsOf: array)
        for (range, grows) in [(2..<5, false), (0..<13, true), (7..<26, true)] {
            let expected = Array(array[range])
            array.writeAgain(range)
            buffer.writeAgain(range)
            XCTAssertEqual(Array(array.suffix(range.count)), expected, "\(range), growing: \(grows)")
            XCTAssertEqual(buffer.bytes(from: 0), array)
        }
        XCTAssertEqual(array.count, 10 + 3 + 13 + 19)
    }

    func testHostileStringsAreEscaped() throws {
        let label = "Say \"hi\" \\ back\u{1}\ttab 日本 🎉 button"
        let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\u{1}", with: "").replacingOccurrences(of: "\t", with: "&#9;")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <snapshot version="1" platform="ios" app="a&quot;pp" screen="line&#10;two" width="390" height="844" scale="3">
              <element role="window" frame="0,0,390,844" background="#FFFFFF">
                <element id="b&quot;1" role="button" label="\(escaped)" frame="10,10,20,20" foreground="#FFFFFF" background="#FFFFFF"/>
              </element>
            </snapshot>
            """
        let report = Auditor.audit(try TestSupport.parse(xml), ruleSet: .allBuiltIn)
        XCTAssertFalse(report.findings.isEmpty)
        let whole = try object(report.rendered().bytes)
        XCTAssertEqual((whole["snapshot"] as? NSDictionary)?["app"] as? String, "a\"pp")
        XCTAssertEqual((whole["snapshot"] as? NSDictionary)?["screen"] as? String, "line\ntwo")
        let findings = try XCTUnwrap(whole["findings"] as? [NSDictionary])
        XCTAssertTrue(findings.contains { $0["element"] as? String == "b\"1" })
        let messages = findings.compactMap { $0["message"] as? String }
        XCTAssertTrue(messages.contains { $0.contains("Say \"hi\" \\ back\ttab 日本 🎉") }, "\(messages)")
    }

    func testNumbersAndNullsMatchTheJSONValueWriter() {
        for value in [0, 7, -7, 10, 99, 100, 123_456_789, Int.max, Int.min] {
            XCTAssertEqual(String(decoding: JSON.int(value).bytes, as: UTF8.self), String(value))
        }
        XCTAssertEqual(String(decoding: JSON.number(4.5).bytes, as: UTF8.self), "4.5")
        XCTAssertEqual(String(decoding: JSON.number(-12).bytes, as: UTF8.self), "-12")
        XCTAssertEqual(String(decoding: JSON.number(.nan).bytes, as: UTF8.self), "null")
    }
}
