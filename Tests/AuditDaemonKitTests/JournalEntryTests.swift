import AuditCore
@testable import AuditDaemonKit
import Foundation
import XCTest

/// The journal writes an audit's records from the rendered report's bytes: one `audit`
/// record then one `finding` record per finding, each a valid JSON line with seq and time.
final class JournalEntryTests: XCTestCase {
    func testAuditRecordsReuseTheReportBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-entry-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("findings.jsonl").path
        let journal = try Journal(path: path, maxBytes: 1 << 30, keep: 2, logger: Logger(level: .error, underSystemd: false))
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let bytes = [UInt8](try Data(contentsOf: examples.appendingPathComponent("checkout.xml")))
        let report = Auditor.audit(try SnapshotParser().parse(bytes), ruleSet: .allBuiltIn)
        XCTAssertGreaterThan(report.findings.count, 3)
        let rendered = report.rendered()
        // A clean screen first: one `audit` record, so the checkout's records start at seq 2.
        let clean = Auditor.audit(
            try SnapshotParser().parse(
                Array(
                    """
                    <snapshot version="1" platform="ios" app="com.example.clean" width="390" height="844">
                      <element role="window" frame="0,0,390,844" background="#FFFFFF"/>
                    </snapshot>
                    """.utf8)), ruleSet: .allBuiltIn)
        XCTAssertEqual(clean.findings.count, 0)
        let done = expectation(description: "durable")
        let entries = [AuditJournalEntry(clean, rendered: clean.rendered()), AuditJournalEntry(report, rendered: rendered)]
        journal.append(entries[0]) { _ in }
        journal.append(entries[1]) { result in
            if case .success(let range) = result { XCTAssertEqual(range, 2...UInt64(report.findings.count + 2)) } else { XCTFail("\(result)") }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, report.findings.count + 2)
        // The journal writes the records' fields from where the entries keep them; each
        // line is what `writeRecord` renders, after the journal's own `seq` and `time`.
        var expectedFields: [[UInt8]] = []
        for entry in entries {
            for index in 0..<entry.recordCount {
                var fields: [UInt8] = []
                entry.writeRecord(index, to: &fields)
                expectedFields.append(fields)
            }
        }
        for (offset, (line, fields)) in zip(lines, expectedFields).enumerated() {
            let prefix = #"{"seq":\#(offset + 1),"time":""#
            XCTAssertTrue(line.hasPrefix(prefix), String(line.prefix(60)))
            let afterTime = try XCTUnwrap(line.dropFirst(prefix.count).firstRange(of: "\","))
            XCTAssertEqual(Array(line[afterTime.upperBound...].utf8), fields + [UInt8(ascii: "}")], "line \(offset + 1)")
        }
        let records = try lines.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary) }
        XCTAssertEqual(records.map { $0["seq"] as? Int }, Array(1...records.count))
        XCTAssertEqual(records[0]["type"] as? String, "audit")
        XCTAssertEqual(records[0]["audit"] as? String, clean.id)
        XCTAssertEqual(records[1]["type"] as? String, "audit")
        XCTAssertEqual(records[1]["audit"] as? String, report.id)
        XCTAssertEqual(records[1]["app"] as? String, "com.example.shop")
        XCTAssertEqual((records[1]["summary"] as? NSDictionary)?["error"] as? Int, report.count(.error))
        let reportFindings = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(rendered.bytes)) as? NSDictionary)?["findings"] as? [NSDictionary])
        for (offset, record) in records.dropFirst(2).enumerated() {
            XCTAssertEqual(record["type"] as? String, "finding")
            XCTAssertEqual(record["audit"] as? String, report.id)
            XCTAssertNotNil(record["time"] as? String)
            let fields = NSMutableDictionary(dictionary: (record as? [AnyHashable: Any]) ?? [:])
            for key in ["seq", "time", "type", "audit", "app", "build", "screen"] { fields.removeObject(forKey: key) }
            XCTAssertEqual(fields as NSDictionary, reportFindings[offset])
        }
    }

    /// The audit record keeps what the reader says from the transcript's summary: its
    /// digest and stop count whole, the speech of at most ``AuditJournalEntry/maxTranscriptStops``
    /// stops, and `speech_cut` when some were left out.
    func testTheAuditRecordsTranscriptIsItsSummary() throws {
        func record(buttons: Int) throws -> (NSDictionary, Transcript) {
            var xml = #"<snapshot version="1" platform="ios" app="com.example.many" screen="List" width="390" height="844">"#
            for index in 0..<buttons {
                xml += ##"<element id="b\##(index)" role="button" label="Item \##(index)" frame="0,\##(index * 20),390,20"/>"##
            }
            let snapshot = try SnapshotParser().parse(Array((xml + "</snapshot>").utf8))
            let transcript = Transcript.of(snapshot)
            let summary = Transcript.Summary(transcript, speechLimit: AuditJournalEntry.maxTranscriptStops)
            let report = Auditor.audit(snapshot, ruleSet: .only(LabelMissingRule.self))
            let entry = AuditJournalEntry(report, rendered: report.rendered(), transcript: summary)
            var line: [UInt8] = [UInt8(ascii: "{")]
            entry.writeRecord(0, to: &line)
            line.append(UInt8(ascii: "}"))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line)) as? NSDictionary)
            return (try XCTUnwrap(object["transcript"] as? NSDictionary), transcript)
        }
        let (few, fewTranscript) = try record(buttons: 3)
        XCTAssertEqual(few["stops"] as? Int, 3)
        XCTAssertEqual(few["digest"] as? String, fewTranscript.digest)
        XCTAssertEqual(few["speech"] as? [String], fewTranscript.stops.map(\.speech))
        XCTAssertNil(few["speech_cut"])
        let limit = AuditJournalEntry.maxTranscriptStops
        let (many, manyTranscript) = try record(buttons: limit + 5)
        XCTAssertEqual(many["stops"] as? Int, limit + 5)
        XCTAssertEqual(many["digest"] as? String, manyTranscript.digest)
        XCTAssertEqual(many["speech"] as? [String], manyTranscript.stops.prefix(limit).map(\.speech))
        XCTAssertEqual(many["speech_cut"] as? Bool, true)
    }

    /// A batch of entries whose records need several `writev` calls (more than 1,024 runs)
    /// and a report in several pieces: every line is its record, in seq order, and an
    /// entry's size is what its pieces say.
    func testLargeEntriesAreWrittenLineForLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-large-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("findings.jsonl").path
        let journal = try Journal(path: path, maxBytes: 1 << 30, keep: 2, logger: Logger(level: .error, underSystemd: false))
        func report(buttons: Int) throws -> AuditReport {
            var xml = #"<snapshot version="1" platform="ios" app="com.example.many" screen="Grid" width="390" height="844">"#
            for index in 0..<buttons {
                xml += ##"<element id="b\##(index)" role="button" frame="\##(index % 10 * 39),\##(index / 10 * 20),20,20" background="#FFFFFF"/>"##
            }
            return Auditor.audit(try SnapshotParser().parse(Array((xml + "</snapshot>").utf8)), ruleSet: .allBuiltIn)
        }
        let reports = [try report(buttons: 4_000), try report(buttons: 1), try report(buttons: 600)]
        let entries = reports.map { AuditJournalEntry($0, rendered: $0.rendered()) }
        XCTAssertGreaterThan(entries[0].report.pieces.count, 1, "a report in several pieces")
        for entry in entries {
            let counted = entry.withRecordPieces { piece in
                (0..<entry.recordCount).reduce(0) { $0 + piece($1).head.count + piece($1).body.count + 48 }
            }
            XCTAssertEqual(entry.byteCount, counted)
        }
        let done = expectation(description: "durable")
        done.expectedFulfillmentCount = entries.count
        for entry in entries { journal.append(entry) { _ in done.fulfill() } }
        wait(for: [done], timeout: 30)
        let lines = try Data(contentsOf: URL(fileURLWithPath: path)).split(separator: 0x0A, omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, entries.reduce(0) { $0 + $1.recordCount } + 1)
        XCTAssertEqual(lines.last?.isEmpty, true, "the file ends with a newline")
        var seq = 0
        for entry in entries {
            for index in 0..<entry.recordCount {
                var fields: [UInt8] = []
                entry.writeRecord(index, to: &fields)
                let line = [UInt8](lines[seq])
                seq += 1
                let prefix = Array(#"{"seq":\#(seq),"time":""#.utf8)
                XCTAssertEqual(Array(line.prefix(prefix.count)), prefix, "line \(seq)")
                XCTAssertEqual(Array(line.suffix(fields.count + 1)), fields + [UInt8(ascii: "}")], "line \(seq)")
            }
        }
    }
}
