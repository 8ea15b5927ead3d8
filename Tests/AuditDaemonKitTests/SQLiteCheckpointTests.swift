@testable import AuditDaemonKit
@testable import AuditHistory
import Foundation
import XCTest

/// A statement read for one row lets go of its read transaction: a reader left on a row
/// keeps its snapshot open, no checkpoint can empty the write-ahead log past it, and the
/// trend index's -wal file grew with every audit (2.2 GB after 32,000 audits).
final class SQLiteCheckpointTests: XCTestCase {
    func testAOneRowReadDoesNotHoldTheLogOpen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("checkpoint-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let writer = try SQLiteDatabase(path: path)
        try writer.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT)")
        let insert = try writer.prepare("INSERT INTO t VALUES(?, ?)")
        for key in 0..<200 { try insert.run([.integer(Int64(key)), .text(String(repeating: "v", count: 500))]) }
        // A reader beside the writer, as trend queries are: its lookups leave no snapshot open.
        let reader = try SQLiteDatabase(path: path, readOnly: true)
        let lookup = try reader.prepare("SELECT v FROM t WHERE k = ?")
        XCTAssertEqual(try lookup.firstRow([.integer(7)]) { $0.text(0)?.count }, 500)
        XCTAssertNil(try lookup.firstRow([.integer(-1)]) { $0.text(0) })
        // The writer's own lookups (the index reads an audit's build while it indexes).
        let own = try writer.prepare("SELECT k FROM t WHERE k = ?")
        XCTAssertEqual(try own.firstRow([.integer(3)]) { $0.integer(0) }, 3)
        for key in 200..<400 { try insert.run([.integer(Int64(key)), .text(String(repeating: "w", count: 500))]) }
        // Checkpoint everything and truncate the log: refused (busy) while a reader holds a snapshot.
        let checkpoint = try writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        let busy = try checkpoint.firstRow([]) { $0.integer(0) }
        XCTAssertEqual(busy, 0, "a reader still holds the log open")
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        XCTAssertEqual(log, 0, "the write-ahead log was not emptied")
        // And the rows are all there, read through the reader that was open throughout.
        XCTAssertEqual(try reader.prepare("SELECT count(*) FROM t").firstRow([]) { $0.integer(0) }, 400)
    }
}
