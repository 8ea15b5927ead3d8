/// A uniform grid over the screen for pairwise geometric checks: every rectangle is filed
/// under each cell it covers, so neighbours are found without comparing all pairs. Built
/// once, in compressed rows (two flat arrays, no hashing).
public struct SpatialGrid {
    public let cellSize: Double
    private let items: [Int]
    private let rects: [Rect]
    private let originX: Double
    private let originY: Double
    private let columns: Int
    private let rows: Int
    /// `cellStart[c] ..< cellStart[c + 1]` indexes `entries` for cell `c`.
    private let cellStart: [Int32]
    private let entries: [Int32]
    /// For each id (ids are small non-negative integers: element indexes), its position in
    /// `items`, or -1.
    private var positions: [Int32] = []

    /// Indexes `items` (ids with their rectangles); ids are returned by ``candidates(near:)``.
    public init(_ items: [(id: Int, rect: Rect)], cellSize requested: Double) {
        var size = max(requested, 1)
        self.items = items.map(\.id)
        self.rects = items.map(\.rect)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for rect in rects {
            minX = min(minX, rect.minX)
            minY = min(minY, rect.minY)
            maxX = max(maxX, rect.maxX)
            maxY = max(maxY, rect.maxY)
        }
        if rects.isEmpty { (minX, minY, maxX, maxY) = (0, 0, 0, 0) }
        // Keep the grid to a few million cells whatever the coordinates.
        while ((maxX - minX) / size + 1) * ((maxY - minY) / size + 1) > 4_000_000 { size *= 2 }
        self.cellSize = size
        originX = minX
        originY = minY
        // Frames are finite (PackedRect), so these are too; one cell otherwise, never a trap.
        let spanX = ((maxX - minX) / size).rounded(.down), spanY = ((maxY - minY) / size).rounded(.down)
        columns = spanX.isFinite && spanX < 4_000_000 ? Int(spanX) + 1 : 1
        rows = spanY.isFinite && spanY < 4_000_000 ? Int(spanY) + 1 : 1
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var spans: [(ClosedRange<Int>, ClosedRange<Int>)] = []
        spans.reserveCapacity(rects.count)
        for rect in rects {
            let span = SpatialGrid.span(rect, originX: minX, originY: minY, size: size, columns: columns, rows: rows)
            spans.append(span)
            for row in span.1 { for column in span.0 { counts[row * columns + column + 1] += 1 } }
        }
        for cell in 1..<counts.count { counts[cell] += counts[cell - 1] }
        var fill = counts
        var entries = [Int32](repeating: 0, count: Int(counts.last ?? 0))
        for (position, span) in spans.enumerated() {
            for row in span.1 {
                for column in span.0 {
                    let cell = row * columns + column
                    entries[Int(fill[cell])] = Int32(position)
                    fill[cell] += 1
                }
            }
        }
        cellStart = counts
        self.entries = entries
        positions = [Int32](repeating: -1, count: (self.items.max() ?? -1) + 1)
        for (position, id) in self.items.enumerated() where id >= 0 { positions[id] = Int32(position) }
    }

    private static func span(_ rect: Rect, originX: Double, originY: Double, size: Double, columns: Int, rows: Int)
        -> (ClosedRange<Int>, ClosedRange<Int>) {
        // Truncation is the floor for the positive values left after the clamp (and costs no
        // call into libm, as `rounded(.down)` does on this target); NaN goes to cell 0.
        func cell(_ value: Double, _ origin: Double, _ limit: Int) -> Int {
            let raw = (value - origin) / size
            guard raw > 0 else { return 0 }
            return raw < Double(limit - 1) ? Int(raw) : limit - 1
        }
        let c0 = cell(rect.minX, originX, columns), c1 = cell(rect.maxX, originX, columns)
        let r0 = cell(rect.minY, originY, rows), r1 = cell(rect.maxY, originY, rows)
        // Huge rectangles (a full-screen target) are filed in at most 64×64 cells' worth.
        return (c0...min(c1, c0 + 63), r0...min(r1, r0 + 63))
    }

    /// Ids whose cells overlap `rect` (a superset of those intersecting it), ascending.
    public func candidates(near rect: Rect) -> [Int] {
        var found: [Int] = []
        candidates(near: rect, into: &found)
        return found
    }

    /// ``candidates(near:)`` into `found` (emptied first), so a loop over many queries
    /// reuses one buffer.
    public func candidates(near rect: Rect, into found: inout [Int]) {
        found.removeAll(keepingCapacity: true)
        guard !items.isEmpty else { return }
        let span = SpatialGrid.span(rect, originX: originX, originY: originY, size: cellSize, columns: columns, rows: rows)
        var cells = 0
        for row in span.1 {
            for column in span.0 {
                let cell = row * columns + column
                let start = Int(cellStart[cell]), end = Int(cellStart[cell + 1])
                if start < end {
                    cells += 1
                    for entry in entries[start..<end] { found.append(items[Int(entry)]) }
                }
            }
        }
        found.sort()
        // Several cells can hold the same rectangle: drop repeats in place.
        guard cells > 1, found.count > 1 else { return }
        var kept = 1
        for position in 1..<found.count where found[position] != found[kept - 1] {
            found[kept] = found[position]
            kept += 1
        }
        found.removeLast(found.count - kept)
    }

    public func rect(of id: Int) -> Rect? {
        guard id >= 0, id < positions.count, positions[id] >= 0 else { return nil }
        return rects[Int(positions[id])]
    }
}
