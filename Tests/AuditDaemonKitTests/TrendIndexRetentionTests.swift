import AuditCore
@testable import AuditDaemonKit
@testable import AuditHistory
import Dispatch
import Foundation
import XCTest

/// The trend index keeps what trends read — the last audit of each screen in each build —
/// and lets the one before it go as a screen is audited again: it grows with builds and
/// screens, not with audits (a screen audited again and again in one build held every
/// audit's findings, about 45 KB an audit on the soak's mix). An index made before that
/// is pruned once when opened.
final class TrendIndexRetentionTests: XCTestCase {
    /// One audit's records: the audit, then `findings` findings with fingerprints of its own.
    struct Audit: JournalEntry {
        let id: String
        let build: String?
        let screen: String
        let findings: Int
        var recordCount: Int { findings + 1 }
        func writeRecord(_ index: Int, to out: inout [UInt8]) {
            let build = self.build.map { #""\#($0)""# } ?? "null"
            let identity = #""audit":"\#(id)","app":"shop","build":\#(build),"screen":"\#(screen)""#
            if index == 0 {
                out.append(contentsOf: (#""type":"audit","# + identity).utf8)
            } else {
                out.append(
                    contentsOf: (#""type":"finding","# + identity
                        + #","rule":"label.missing","severity":"error","path":"/a[\#(index)]","message":"m","fingerprint":"\#(id)-\#(index)","defect":"d\#(index)""#)
                        .utf8)
            }
        }
    }

    func append(_ audits: [Audit], to journal: Journal) {
        let done = expectation(description: "journalled")
        done.expectedFulfillmentCount = audits.count
        for audit in audits {
            journal.append(audit) { result in
                if case .failure(let error) = result { XCTFail("\(error)") }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 30)
    }

    /// Per build and screen, the fingerprints of the findings trends read, through a query.
    func trendFindings(_ index: TrendIndex) throws -> [String: [String]] {
        let answer = Locked<Result<[String: [String]], SQLiteError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        index.read(
            { store throws(SQLiteError) -> [String: [String]] in
                var found: [String: [String]] = [:]
                for build in try store.builds(app: "shop") {
                    for screen in try store.screens(app: "shop", build: build.name) {
                        found["\(build.name)/\(screen.screen)"] = try store.findings(audit: screen.seq).map(\.fingerprint).sorted()
                    }
                }
                return found
            },
            done: {
                answer.set($0)
                done.signal()
            })
        done.wait()
        return try XCTUnwrap(answer.get()).get()
    }

    /// The index's rows, counted through its own connection (the daemon holds it alone).
    func rows(_ index: TrendIndex) throws -> (audits: Int64, findings: Int64) {
        let answer = Locked<Result<(Int64, Int64), SQLiteError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        index.read(
            { store throws(SQLiteError) -> (Int64, Int64) in
                let audits = try store.database.prepare("SELECT count(*) FROM audits").firstRow([]) { $0.integer(0) } ?? -1
                let findings = try store.database.prepare("SELECT count(*) FROM findings").firstRow([]) { $0.integer(0) } ?? -1
                return (audits, findings)
            },
            done: {
                answer.set($0)
                done.signal()
            })
        done.wait()
        let (audits, findings) = try XCTUnwrap(answer.get()).get()
        return (audits, findings)
    }

    func testAScreenAuditedAgainLetsItsEarlierAuditGo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trend-retention-\(getpid())-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(level: .error, underSystemd: false)
        let journal = try Journal(path: directory.appendingPathComponent("findings.jsonl").path, maxBytes: 1 << 30, keep: 2, logger: logger)
        append(
            [
                Audit(id: "A0", build: "7", screen: "Home", findings: 5), Audit(id: "A1", build: "7", screen: "Home", findings: 4),
                Audit(id: "C0", build: "7", screen: "Cart", findings: 2), Audit(id: "N0", build: nil, screen: "Home", findings: 3),
                Audit(id: "A2", build: "7", screen: "Home", findings: 3), Audit(id: "B0", build: "8", screen: "Home", findings: 2),
                Audit(id: "N1", build: nil, screen: "Cart", findings: 1), Audit(id: "B1", build: "8", screen: "Home", findings: 1),
            ], to: journal)
        let expected = ["7/Home": ["A2-1", "A2-2", "A2-3"], "7/Cart": ["C0-1", "C0-2"], "8/Home": ["B1-1"]]
        let path: String
        do {
            let index = TrendIndex(journal: journal, logger: logger)
            path = index.path
            XCTAssertEqual(try trendFindings(index), expected)
            // Three audits are read by trends, and only they are kept; the audits that name no
            // build are in no trend and not kept either.
            XCTAssertEqual(try rows(index).audits, 3)
            XCTAssertEqual(try rows(index).findings, 3)
        }

        // An index made before holds every audit: opened again, it is pruned once, and
        // trends answer the same. (The index above is closed: it holds its file alone.)
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute(
                """
                INSERT INTO audits VALUES(100001, 'OLD', 'shop', '7', 'Home', NULL, NULL, NULL);
                INSERT INTO findings VALUES(100001, 0, 'packed');
                DELETE FROM meta WHERE key = 'superseded-pruned';
                """)
            XCTAssertEqual(try database.prepare("SELECT count(*) FROM audits").firstRow([]) { $0.integer(0) }, 4)
        }
        let reopened = TrendIndex(journal: journal, logger: logger)
        XCTAssertEqual(try trendFindings(reopened), expected)
        XCTAssertEqual(try rows(reopened).audits, 3)
        XCTAssertEqual(try rows(reopened).findings, 3)
    }
}
