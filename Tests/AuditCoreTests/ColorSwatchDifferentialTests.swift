@testable import AuditModel
import XCTest

/// The colour histogram and the neighbour counts of a crop, read the fast way (samples
/// gathered then counted by runs, pairs of cells compared once), against the plain way:
/// every sample read with bounds checks into a dictionary, every cell's four neighbours
/// looked at. Random screens of runs of a few colours with noise, random crops and rings.
final class ColorSwatchDifferentialTests: XCTestCase {
    /// A `width` × `height` screen of horizontal runs of a few colours, with some noise.
    func randomScreen(_ random: inout SeededGenerator, width: Int, height: Int) -> Screenshot {
        let palette: [[UInt8]] = (0..<(2 + random.below(6))).map { _ in [UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256))] }
        var rgba = [UInt8]()
        rgba.reserveCapacity(width * height * 4)
        var color = palette[0]
        for _ in 0..<(width * height) {
            if random.below(12) == 0 { color = palette[random.below(palette.count)] }
            let pixel = random.below(40) == 0 ? [UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256))] : color
            rgba += pixel + [UInt8(128 + random.below(128))]
        }
        return Screenshot(width: width, height: height, format: .png, rgba: rgba)
    }

    func randomRect(_ random: inout SeededGenerator, in screen: Screenshot) -> PixelRect {
        // Sometimes past the screen's edges: the swatch clips.
        PixelRect(x: random.below(screen.width + 20) - 10, y: random.below(screen.height + 20) - 10, width: random.below(screen.width), height: random.below(screen.height))
    }

    func testSamplesAndCountsAreThoseOfEveryPixelReadPlainly() {
        var random = SeededGenerator()
        for round in 0..<60 {
            let screen = randomScreen(&random, width: 40 + random.below(200), height: 40 + random.below(200))
            let rects = (0..<(round % 3 == 0 ? 4 : 1)).map { _ in randomRect(&random, in: screen) }
            let bounds = PixelRect(x: 0, y: 0, width: screen.width, height: screen.height)
            let clipped = rects.map { $0.clipped(to: bounds) }
            let step = 1 + random.below(4)
            var expected: [UInt32] = []
            for rect in clipped where !rect.isEmpty {
                for y in stride(from: rect.y, to: rect.y + rect.height, by: step) {
                    for x in stride(from: rect.x, to: rect.x + rect.width, by: step) {
                        let color = screen.rgba[(y * screen.width + x) * 4..<(y * screen.width + x) * 4 + 3].map(UInt32.init)
                        expected.append(color[0] << 16 | color[1] << 8 | color[2])
                    }
                }
            }
            let samples = ColorSwatch.sample(screen, clipped, step: step)
            XCTAssertEqual(samples, expected, "seed \(random.seed), round \(round)")

            var capacity = 64
            while capacity < 2 * samples.count { capacity *= 2 }
            var table = ColorCountTable(capacity: capacity)
            let slots = table.add(samples, keepingSlots: true)
            var counts: [UInt32: Int] = [:]
            for key in samples { counts[key, default: 0] += 1 }
            let entries = table.entries()
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.count) }), counts, "seed \(random.seed), round \(round)")
            let slotOf = Dictionary(uniqueKeysWithValues: entries.map { ($0.key, Int32($0.slot)) })
            XCTAssertEqual(slots, samples.map { slotOf[$0] ?? -1 }, "seed \(random.seed), round \(round)")
        }
    }

    /// The neighbour counts as they were first written: each cell's four neighbours.
    func plainNeighbours(grid: [Int16], columns: Int, rows: Int, step: Int, clusters: Int) -> (total: [Int], edge: [Int], outline: [Int], beside: [Int]) {
        let count = min(SwatchNeighbours.followed, clusters)
        let reach = max(1, (2 + step - 1) / step)
        var total = [Int](repeating: 0, count: count), edge = total, outline = total
        var beside = [Int](repeating: 0, count: count * clusters)
        for row in 0..<rows {
            for column in 0..<columns {
                let own = Int(grid[row * columns + column])
                guard own >= 0, own < count else { continue }
                total[own] += 1
                if row < reach || rows - 1 - row < reach || column < reach || columns - 1 - column < reach { edge[own] += 1 }
                var onOutline = false
                for (dx, dy) in [(reach, 0), (-reach, 0), (0, reach), (0, -reach)] {
                    let x = column + dx, y = row + dy
                    guard x >= 0, x < columns, y >= 0, y < rows else { continue }
                    let other = Int(grid[y * columns + x])
                    if other != own {
                        onOutline = true
                        if other >= 0 { beside[own * clusters + other] += 1 }
                    }
                }
                if onOutline { outline[own] += 1 }
            }
        }
        return (total, edge, outline, beside)
    }

    func testNeighbourCountsAreThoseOfEveryCellLookedAtPlainly() {
        var random = SeededGenerator()
        for round in 0..<200 {
            let columns = random.below(70), rows = random.below(70), step = 1 + random.below(4)
            let clusters = 1 + random.below(12)
            var grid: [Int16] = []
            var value = Int16(0)
            for _ in 0..<(columns * rows) {
                if random.below(5) == 0 { value = Int16(random.below(clusters + 1) - 1) }
                grid.append(value)
            }
            let fast = SwatchNeighbours(grid: grid, columns: columns, rows: rows, step: step, clusters: clusters)
            let plain = plainNeighbours(grid: grid, columns: columns, rows: rows, step: step, clusters: clusters)
            let context = "seed \(random.seed), round \(round): \(columns) × \(rows), step \(step)"
            XCTAssertEqual(fast.total, plain.total, context)
            XCTAssertEqual(fast.edge, plain.edge, context)
            XCTAssertEqual(fast.outline, plain.outline, context)
            XCTAssertEqual(fast.beside, plain.beside, context)
        }
    }

    /// Real swatches give the same neighbour counts as the plain reading of their grid.
    func testSwatchesOfRandomScreensAgreeWithThePlainNeighbours() {
        var random = SeededGenerator()
        for round in 0..<40 {
            let screen = randomScreen(&random, width: 60 + random.below(300), height: 60 + random.below(300))
            let swatch = ColorSwatch(screen, randomRect(&random, in: screen))
            XCTAssertEqual(swatch.cellClusters.count, swatch.columns * swatch.rows, "seed \(random.seed), round \(round)")
            let fast = SwatchNeighbours(swatch)
            let plain = plainNeighbours(grid: swatch.cellClusters, columns: swatch.columns, rows: swatch.rows, step: swatch.step, clusters: swatch.clusters.count)
            XCTAssertEqual(fast.total, plain.total, "seed \(random.seed), round \(round)")
            XCTAssertEqual(fast.outline, plain.outline, "seed \(random.seed), round \(round)")
            XCTAssertEqual(fast.beside, plain.beside, "seed \(random.seed), round \(round)")
            XCTAssertEqual(swatch.total, swatch.cellClusters.count, "seed \(random.seed), round \(round)")
        }
    }

    /// A grid that is not the size it says is read as empty, not out of bounds.
    func testAGridOfTheWrongSizeIsEmpty() {
        let neighbours = SwatchNeighbours(grid: [0, 1, 0], columns: 4, rows: 4, step: 1, clusters: 2)
        XCTAssertEqual(neighbours.total, [0, 0])
    }
}
