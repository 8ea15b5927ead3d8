/// A uniform grid over the screen for pairwise geometric checks: each rectangle is
/// filed under every cell it covers, so neighbours are found without comparing all pairs.
public struct SpatialGrid {
    public let cellSize: Double
    private var cells: [Int64: [Int]] = [:]
    private var rects: [Int: Rect] = [:]

    public init(cellSize: Double) { self.cellSize = max(cellSize, 1) }

    private func key(_ column: Int, _ row: Int) -> Int64 { Int64(column) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: row))) }

    private func range(_ rect: Rect) -> (ClosedRange<Int>, ClosedRange<Int>) {
        func cell(_ value: Double) -> Int { Int((value / cellSize).rounded(.down).clamped(-1_000_000, 1_000_000)) }
        return (cell(rect.minX)...max(cell(rect.minX), cell(rect.maxX)), cell(rect.minY)...max(cell(rect.minY), cell(rect.maxY)))
    }

    public mutating func insert(_ item: Int, _ rect: Rect) {
        rects[item] = rect
        let (columns, rows) = range(rect)
        // Huge rectangles (a full-screen target) are filed in at most 64×64 cells' worth.
        for column in columns.prefix(64) {
            for row in rows.prefix(64) { cells[key(column, row), default: []].append(item) }
        }
    }

    /// Items whose cells overlap `rect` (a superset of those intersecting it), ascending.
    public func candidates(near rect: Rect) -> [Int] {
        var found: [Int] = []
        let (columns, rows) = range(rect)
        var cellsVisited = 0
        for column in columns.prefix(64) {
            for row in rows.prefix(64) {
                if let items = cells[key(column, row)] {
                    found += items
                    cellsVisited += 1
                }
            }
        }
        guard cellsVisited > 1 else { return found }
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for item in found where unique.last != item { unique.append(item) }
        return unique
    }

    public func rect(of item: Int) -> Rect? { rects[item] }
}

extension Double {
    func clamped(_ lower: Double, _ upper: Double) -> Double { Swift.min(Swift.max(self, lower), upper) }
}
