@testable import AuditReporting
import XCTest

/// The identities' hash counter against a `Dictionary` doing the same counting: random
/// keys drawn from a small pool (so many repeat), tables from tiny to large.
final class HashCountsTests: XCTestCase {
    func testCountsAndFirstsAreThoseOfADictionary() {
        var random = SeededGenerator()
        for round in 0..<50 {
            let pool = (0..<(1 + random.below(3000))).map { _ in random.next() & (random.below(2) == 0 ? 0xFFFF : .max) }
            let adds = random.below(4000)
            var table = HashCounts(expected: pool.count)
            var expected: [UInt64: (count: UInt32, first: Int32)] = [:]
            for index in 0..<adds {
                let key = pool[random.below(pool.count)]
                let (before, first) = table.add(key, index: Int32(index))
                let known = expected[key]
                XCTAssertEqual(before, known?.count ?? 0, "seed \(random.seed), round \(round)")
                XCTAssertEqual(first, known?.first ?? Int32(index), "seed \(random.seed), round \(round)")
                expected[key] = ((known?.count ?? 0) + 1, known?.first ?? Int32(index))
            }
            for key in pool { XCTAssertEqual(table.count(of: key), expected[key]?.count ?? 0, "seed \(random.seed), round \(round)") }
        }
    }

    /// One table reset between rounds counts as a fresh one would: rounds of every size,
    /// small after large (the storage kept) and large after small (made anew), their keys
    /// drawn from one set shared by every round (siblings of different parents share
    /// role and id), so a count left from an earlier round would show.
    func testAResetTableCountsAsAFreshOne() {
        var random = SeededGenerator()
        let universe = (0..<3000).map { _ in random.next() }
        var table = HashCounts(expected: 4)
        for round in 0..<200 {
            let distinct = 1 + random.below(round % 3 == 0 ? 2000 : 20)
            table.reset(expected: distinct)
            let pool = (0..<distinct).map { _ in universe[random.below(round % 2 == 0 ? 40 : universe.count)] }
            var expected: [UInt64: (count: UInt32, first: Int32)] = [:]
            for index in 0..<random.below(3 * distinct) {
                let key = pool[random.below(pool.count)]
                let (before, first) = table.add(key, index: Int32(index))
                let known = expected[key]
                XCTAssertEqual(before, known?.count ?? 0, "seed \(random.seed), round \(round)")
                XCTAssertEqual(first, known?.first ?? Int32(index), "seed \(random.seed), round \(round)")
                expected[key] = ((known?.count ?? 0) + 1, known?.first ?? Int32(index))
            }
            for key in pool { XCTAssertEqual(table.count(of: key), expected[key]?.count ?? 0, "seed \(random.seed), round \(round)") }
        }
    }
}
