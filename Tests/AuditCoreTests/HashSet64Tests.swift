@testable import AuditCore
import XCTest

/// The probed set of word hashes behind label.redundant-trait's quick reject: the same
/// answers as `Set<UInt64>` for members, non-members, zero and values that share slots.
final class HashSet64Tests: XCTestCase {
    func testAnswersLikeASetOfUInt64() {
        var generator = SeededGenerator()
        for size in [0, 1, 7, 8, 100, 1_000] {
            var members = Set((0..<size).map { _ in UInt64.random(in: .min ... .max, using: &generator) })
            // Values that land in the same slots (equal low bits) and zero.
            members.formUnion([0x10, 0x1_0000_0010, 0x2_0000_0010, 0x3_0000_0010])
            if size % 2 == 0 { members.insert(0) }
            let set = HashSet64(members)
            for member in members { XCTAssertTrue(set.contains(member), "\(member) in a set of \(members.count)") }
            for _ in 0..<2_000 {
                let probe = UInt64.random(in: .min ... .max, using: &generator)
                XCTAssertEqual(set.contains(probe), members.contains(probe))
            }
            XCTAssertEqual(set.contains(0), members.contains(0))
            XCTAssertFalse(set.contains(0x4_0000_0010))
        }
    }
}
