import AuditCore
@testable import AuditDaemonKit
import Dispatch
import Foundation
import XCTest

/// The trend index catches up from the background a megabyte of journal at a time, with
/// a pause between (audits under load must not wait behind it): however far behind it
/// is, it gets to the journal's end.
final class TrendIndexCatchUpTests: XCTestCase {
    /// One audit's records: the audit, then its findings, each with a long message.
    struct Audit: JournalEntry {
        let id: String
        let findings: Int
        var recordCount: Int { findings + 1 }
        func writeRecord(_ index: Int, to out: inout [UInt8]) {
            let identity = #""audit":"\#(id)","app":"shop","build":"7","screen":"Home""#
            if index == 0 {
                out.append(contentsOf: (#""type":"audit","# + identity).utf8)
            } else {
                let message = String(repeating: "m", count: 1_000)
                out.append(
                    contentsOf: (#""type":"finding","# + identity
                        + #","rule":"label.missing","severity":"error","path":"/a[\#(index)]","message":"\#(message)","fingerprint":"f\#(index)","defect":"d\#(index)""#)
                        .utf8)
            }
        }
    }

    func append(_ count: Int, from first: Int, to journal: Journal) {
        let done = expectation(description: "journalled")
        done.expectedFulfillmentCount = count
        for number in first..<(first + count) {
            journal.append(Audit(id: "A\(number)", findings: 100)) { result in
                if case .failure(let error) = result { XCTFail("\(error)") }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
    }

    func testABackgroundCatchUpFarBehindReachesTheJournalsEnd() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trend-catch-up-\(getpid())-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(level: .error, underSystemd: false)
        let journal = try Journal(path: directory.appendingPathComponent("findings.jsonl").path, maxBytes: 1 << 30, keep: 2, logger: logger)
        append(5, from: 0, to: journal)
        let index = TrendIndex(journal: journal, logger: logger)
        index.start()
        XCTAssertEqual(index.seq, journal.lastSeq, "start-up catches up whole")
        // Four megabytes more, then one nudge: the background takes them a megabyte at a time.
        append(40, from: 5, to: journal)
        let behind = index.seq
        index.journalAdvanced()
        let deadline = Date().addingTimeInterval(20)
        while index.seq < journal.lastSeq, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(index.seq, journal.lastSeq, "indexed from seq \(behind) to the journal's end")
    }
}
