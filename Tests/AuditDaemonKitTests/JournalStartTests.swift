@testable import AuditDaemonKit
import AuditCore
import Foundation
import XCTest

/// Where a backlog starts reading: found by bisection, it must be a line start with no
/// wanted line before it, whatever the lines' lengths (some longer than the search's
/// blocks) and wherever `since` falls — before the first line, inside, past the last.
final class JournalStartTests: XCTestCase {
    func testTheStartFoundByBisectionSkipsOnlyLinesUpToSince() throws {
        let seed = ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(#function): seed \(seed) (AUDITD_TEST_SEED=\(seed) repeats it)")
        var generator = SplitMix64(seed: seed)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("start-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for round in 0..<4 {
            var bytes: [UInt8] = []
            var starts: [Int] = []
            let first = UInt64(1 + generator.next() % 50)
            let count = [1, 3, 200, 900][round]
            for seq in first..<(first + UInt64(count)) {
                starts.append(bytes.count)
                // Mostly short lines, some longer than the search's 4 KiB and 16 KiB blocks.
                let filler = [20, 300, 5_000, 40_000][Int(generator.next() % 4 == 0 ? generator.next() % 4 : generator.next() % 2)]
                bytes += Array(#"{"seq":\#(seq),"type":"finding","x":""#.utf8) + [UInt8](repeating: 0x61, count: filler) + Array("\"}\n".utf8)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let input = open(path, O_RDONLY)
            defer { close(input) }
            for since in [0, first - 1, first, first + UInt64(count) / 2, first + UInt64(count) - 1, first + UInt64(count), first + 10_000] {
                // The first line wanted: seq `since` + 1's, or none.
                let wanted = since < first ? 0 : Int(since - first + 1)
                let firstWanted = wanted < starts.count ? starts[wanted] : bytes.count
                // Narrowed to the daemon's window, and all the way (to the line itself).
                for window in [16 << 10, 0] {
                    let start = Journal.start(after: since, in: input, length: bytes.count, window: window)
                    XCTAssertTrue(starts.contains(start) || start == bytes.count, "seed \(seed), since \(since): \(start) is no line start")
                    XCTAssertLessThanOrEqual(start, firstWanted, "seed \(seed), since \(since): a wanted line skipped")
                    // Not the whole file read again: within the window and a line.
                    let slack: Int = window + 40_100
                    XCTAssertLessThanOrEqual(firstWanted - start, slack, "seed \(seed), since \(since)")
                    if window == 0 { XCTAssertEqual(start, firstWanted, "seed \(seed), since \(since)") }
                }
            }
        }
    }
}
