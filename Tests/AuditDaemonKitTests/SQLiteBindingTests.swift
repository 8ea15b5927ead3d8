@testable import AuditDaemonKit
@testable import AuditHistory
import Foundation
import XCTest

/// Text bound as UTF-8 bytes (the trend index's packed findings) reads back as the same
/// text bound as a `String` would: up to a NUL, and bytes that are not UTF-8 repaired —
/// also when a second piece is appended to it, as the index appends an audit's findings.
final class SQLiteBindingTests: XCTestCase {
    func testTextBoundAsBytesReadsBackAsTheStringWould() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("binding-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT)")
        let insert = try database.prepare("INSERT INTO t VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = v || excluded.v")
        let select = try database.prepare("SELECT v FROM t WHERE k = ?")
        let samples: [[UInt8]] = [
            Array("fingerprint\u{1F}rule\u{1E}".utf8), Array("Café 👍🏽".utf8), [], Array("before\u{0}after".utf8), [0x41, 0xFF, 0x42, 0xC3],
        ]
        for (key, bytes) in samples.enumerated() {
            for piece in [bytes, Array("tail".utf8)] {
                try insert.run([.integer(Int64(2 * key)), .utf8(piece)])
                try insert.run([.integer(Int64(2 * key + 1)), .text(String(decoding: piece, as: UTF8.self))])
            }
            try select.bind([.integer(Int64(2 * key))])
            XCTAssertTrue(try select.step())
            let asBytes = select.text(0)
            try select.bind([.integer(Int64(2 * key + 1))])
            XCTAssertTrue(try select.step())
            XCTAssertEqual(asBytes, select.text(0), "\(bytes)")
        }
    }
}
