import AuditCore
import AuditFormats
import Foundation
import XCTest

/// `--format json` re-indents the daemon's compact reports byte by byte, staging its output
/// before it reaches the sink: it must print what `JSON.write(pretty: true)` prints, across
/// the staging buffer's edges (strings longer than it, indentation deeper than a line),
/// into a sink of another module's type as `auditctl`'s is.
final class JSONReformatterTests: XCTestCase {
    /// A sink this module defines: the reformatter cannot be specialised for it.
    final class CountingSink: ByteSink {
        var bytes: [UInt8] = []
        var writes = 0
        var count: Int { bytes.count }
        func write(byte: UInt8) {
            bytes.append(byte)
            writes += 1
        }
        func write(bytes more: UnsafeRawBufferPointer) {
            bytes.append(contentsOf: more)
            writes += 1
        }
    }

    func testReindentingPrintsWhatThePrettyWriterPrints() {
        let seed = ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(#function): seed \(seed) (AUDITD_TEST_SEED=\(seed) repeats it)")
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        let pieces = ["a", "Pay", " ", "\"", "\\", "\n", "é", "→", "{", "]", ",", ":"]
        func value(_ depth: Int) -> JSON {
            switch below(depth > 45 ? 5 : 8) {
            case 0: return .null
            case 1: return .bool(below(2) == 0)
            case 2: return .int(below(2_000_000) - 1_000_000)
            case 3: return .number(Double(below(100_000)) / 8)
            case 4:
                // Now and then longer than the staging buffer (64 KB).
                let count = below(20) == 0 ? 70_000 + below(70_000) : below(12)
                return .string((0..<count).map { _ in pieces[below(pieces.count)] }.joined())
            case 5, 6: return .array((0..<below(depth > 30 ? 2 : 5)).map { _ in value(depth + 1) })
            default: return .object((0..<below(depth > 30 ? 2 : 5)).map { _ in ("k\(below(9))", value(depth + 1)) })
            }
        }
        var total = 0
        for round in 0..<40 {
            // Deep chains first, so indentation runs past a line's worth of spaces.
            var root = JSON.object([("findings", .array((0..<(1 + below(40))).map { _ in value(0) }))])
            for _ in 0..<below(60) { root = .object([("inner", root)]) }
            var compact: [UInt8] = []
            root.write(to: &compact)
            var expected: [UInt8] = []
            root.write(to: &expected, pretty: true)
            var sink = CountingSink()
            JSONReformatter.append(compact[...], level: 0, to: &sink)
            XCTAssertEqual(sink.bytes, expected, "seed \(seed) round \(round)")
            // Staged: far fewer writes than bytes once the report is large.
            if expected.count > 200_000 { XCTAssertLessThan(sink.writes * 100, expected.count, "seed \(seed) round \(round)") }
            total += expected.count
        }
        XCTAssertGreaterThan(total, 1_000_000, "seed \(seed): the rounds cross the staging buffer many times")
    }

    func testTheFirstMemberGoesFirstInTheOutermostObject() {
        let report = JSON.object([("audit", .string("x")), ("findings", .array([.object([("rule", .string("r"))])]))])
        var compact: [UInt8] = []
        report.write(to: &compact)
        var sink = CountingSink()
        JSONReformatter.append(compact[...], level: 1, firstMember: Array(#""file": "a.xml""#.utf8), to: &sink)
        var expected: [UInt8] = []
        JSON.object([("file", .string("a.xml"))] + [("audit", .string("x")), ("findings", .array([.object([("rule", .string("r"))])]))])
            .write(to: &expected, pretty: true, indent: 1)
        XCTAssertEqual(String(decoding: sink.bytes, as: UTF8.self), String(decoding: expected, as: UTF8.self))
    }
}
