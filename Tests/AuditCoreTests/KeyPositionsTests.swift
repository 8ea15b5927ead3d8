@testable import AuditCore
@testable import AuditRules
import XCTest

/// `KeyPositions` answers the same whether it scans its keys or indexes them.
final class KeyPositionsTests: XCTestCase {
    func testPositionsAcrossTheLinearLimitAndAfterReuse() {
        var positions = KeyPositions<Int>()
        var generator = SeededGenerator()
        for round in 0..<3 {
            positions.removeAll()
            var reference: [UInt64: Int] = [:]
            var order: [UInt64] = []
            for _ in 0..<(round == 0 ? 5 : 200) {
                // Few distinct keys, so lookups hit as often as they miss.
                let key = UInt64.random(in: 0..<300, using: &generator) &* 0x9E37_79B9_7F4A_7C15
                if let known = positions.position(of: key) {
                    XCTAssertEqual(reference[key], known)
                    positions[known] += 1
                } else {
                    XCTAssertNil(reference[key])
                    reference[key] = order.count
                    order.append(key)
                    positions.append(key, 1)
                }
            }
            XCTAssertEqual(positions.entries.map(\.key), order)
            for (key, position) in reference { XCTAssertEqual(positions.position(of: key), position) }
            XCTAssertNil(positions.position(of: 12345))
        }
    }
}
