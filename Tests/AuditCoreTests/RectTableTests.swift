@testable import AuditCore
@testable import AuditRules
import XCTest

/// `RectTable` (the target rules' frame table, probed without `Hasher`) keeps what a
/// `Dictionary` keyed by the same rectangles keeps, through growth.
final class RectTableTests: XCTestCase {
    func testTheTableKeepsWhatADictionaryKeeps() {
        var random = SeededGenerator()
        let seed = random.seed
        // Whole and half points, negative zero beside zero, repeats: what frames are made of.
        let coordinates: [Double] = [0, -0.0, 0.5, 1, 10, 44, 44.5, 48, 390, 844, -100_000, 200_000, 1e9]
        for capacity in [0, 1, 10, 1_000] {
            var table = RectTable<Int>(capacity: capacity)
            var reference: [Rect: Int] = [:]
            for step in 0..<5_000 {
                let rect = Rect(
                    x: coordinates[random.below(coordinates.count)], y: Double(random.below(200)) * 15,
                    width: coordinates[random.below(coordinates.count)], height: coordinates[random.below(coordinates.count)])
                XCTAssertEqual(table[rect], reference[rect], "seed \(seed) capacity \(capacity) step \(step): \(rect)")
                if random.below(3) > 0 {
                    table[rect] = step
                    reference[rect] = step
                }
            }
            XCTAssertEqual(table.count, reference.count, "seed \(seed) capacity \(capacity)")
            for (rect, value) in reference { XCTAssertEqual(table[rect], value, "seed \(seed) capacity \(capacity): \(rect)") }
        }
    }
}
