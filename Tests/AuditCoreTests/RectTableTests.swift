@testable import AuditCore
@testable import AuditRules
import XCTest

/// `RectTable` (the target rules' frame table, probed without `Hasher`) keeps what a
/// `Dictionary` keyed by the same rectangles keeps, through growth.
final class RectTableTests: XCTestCase {
    /// Also once a key is not exact in single precision (0.1, 1e-300): the table then keeps
    /// its keys whole, the same answers.
    func testTheTableKeepsWhatADictionaryKeeps() {
        var random = SeededGenerator()
        let seed = random.seed
        // Whole and half points, negative zero beside zero, repeats: what frames are made of.
        let coordinates: [Double] = [0, -0.0, 0.5, 1, 10, 44, 44.5, 48, 390, 844, -100_000, 200_000, 1e9]
        for (capacity, inexactFrom) in [(0, Int.max), (1, 0), (10, 2_500), (1_000, Int.max), (1_000, 4_999)] {
            var table = RectTable<Int>(capacity: capacity)
            var reference: [Rect: Int] = [:]
            for step in 0..<5_000 {
                let rect = Rect(
                    x: step >= inexactFrom && random.below(4) == 0 ? [0.1, 1e-300, 16_777_217][random.below(3)] : coordinates[random.below(coordinates.count)],
                    y: Double(random.below(200)) * 15,
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
