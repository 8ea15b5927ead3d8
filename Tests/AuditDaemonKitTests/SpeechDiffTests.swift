import AuditCore
@testable import AuditDaemonKit
@testable import AuditHistory
import XCTest

/// The transcript diff of a build's trend: a longest common subsequence, checked against a
/// plain reference (the textbook table over the texts themselves) on seeded random
/// transcripts; and the cost a client can cause bounded (long stops compared as numbers).
final class SpeechDiffTests: XCTestCase {
    /// The textbook diff: removed and added count as many as the two sides differ from one
    /// longest common subsequence.
    func reference(_ a: [String], _ b: [String]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    /// What is left of `all` once `taken` is taken out, as counts of each stop.
    func kept(_ all: [String], without taken: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for stop in all { counts[stop, default: 0] += 1 }
        for stop in taken { counts[stop, default: 0] -= 1 }
        return counts.filter { $0.value != 0 }
    }

    func testTheDiffIsALongestCommonSubsequenceOnRandomTranscripts() {
        let seed: UInt64 = 0x5EED_51
        print("SpeechDiffTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        let words = ["Back, button", "Inbox, heading", "Close, button", "Milk, 2 items", "Search", "Cart, tab, 2 of 4", "Pay"]
        for round in 0..<400 {
            let a = (0..<Int(random.next() % 12)).map { _ in words[Int(random.next() % UInt64(words.count))] }
            var b = a
            for _ in 0..<Int(random.next() % 5) {
                switch random.next() % 3 {
                case 0 where !b.isEmpty: b.remove(at: Int(random.next() % UInt64(b.count)))
                case 1: b.insert(words[Int(random.next() % UInt64(words.count))], at: Int(random.next() % UInt64(b.count + 1)))
                default: if !b.isEmpty { b[Int(random.next() % UInt64(b.count))] = words[Int(random.next() % UInt64(words.count))] }
                }
            }
            let diff = SpeechDiff(before: a, after: b)
            let common = reference(a, b)
            XCTAssertEqual(diff.removed.count, a.count - common, "round \(round): \(a) → \(b)")
            XCTAssertEqual(diff.added.count, b.count - common, "round \(round): \(a) → \(b)")
            XCTAssertEqual(kept(a, without: diff.removed), kept(b, without: diff.added), "round \(round): \(a) → \(b)")
        }
    }

    /// 1,000 long stops against 1,000 (the most the journal keeps): long texts are compared
    /// once each, as numbers, and the common start and end never enter the table.
    func testLongTranscriptsAreComparedAsNumbers() {
        let long = String(repeating: "A long description of a chart's every bar, ", count: 40)
        let before = (0..<1000).map { "\(long)\($0)" }
        var after = before
        after[500] = "changed"
        let diff = SpeechDiff(before: before, after: after)
        XCTAssertEqual(diff.removed, [before[500]])
        XCTAssertEqual(diff.added, ["changed"])
        let reversed = SpeechDiff(before: before, after: before.reversed())
        XCTAssertEqual(reversed.removed.count, 999)
        XCTAssertEqual(reversed.added.count, 999)
    }
}
