/// The order a reader visits the stops inside a container that orders them by position
/// (``Element/ordersByPosition``: Jetpack Compose's `ComposeView`), as Compose computes the
/// traversal links it hands TalkBack (`sortByGeometryGroupings`): taken in tree order, each
/// stop joins the first row whose vertical span overlaps its own (the row narrows to the
/// overlap), else starts a row; rows are read by top, then bottom; a row's stops by left
/// edge (right edge in a right-to-left layout, which dumps do not say: left to right is
/// assumed), then top, then bottom.
///
/// Not modelled: traversal groups (`isTraversalGroup`, `traversalIndex`), which keep a
/// group's nodes together and which a dump does not show.
enum PositionalOrder {
    /// `stops` (element indices in tree order) with each run inside one ordering container
    /// put in its order.
    static func apply(to stops: [Int], in snapshot: Snapshot) -> [Int] {
        let elements = snapshot.elements
        guard elements.contains(where: { $0.ordersByPosition }) else { return stops }
        // The outermost ordering container above each stop (or -1).
        func container(of index: Int) -> Int {
            var found = -1
            var current = index
            while current >= 0 {
                if elements[current].ordersByPosition { found = current }
                current = Int(elements[current].parent)
            }
            return found
        }
        var result: [Int] = []
        result.reserveCapacity(stops.count)
        var start = 0
        while start < stops.count {
            let owner = container(of: stops[start])
            var end = start + 1
            // Children follow their parents: one container's stops are one run.
            while end < stops.count, owner >= 0, container(of: stops[end]) == owner { end += 1 }
            result.append(contentsOf: owner >= 0 ? rows(Array(stops[start..<end]), in: snapshot) : Array(stops[start..<end]))
            start = end
        }
        return result
    }

    static let epsilon = 0.01
    /// The height of the bands rows are found through, in points, and the most bands one
    /// box is listed in (taller boxes are checked against every row).
    static let bandHeight = 16.0
    static let maxBands = 512

    /// Compose's rows: see the type's documentation.
    static func rows(_ run: [Int], in snapshot: Snapshot) -> [Int] {
        struct Row {
            var top: Double
            var bottom: Double
            var members: [Int]
        }
        func frame(_ index: Int) -> Rect { snapshot.elements[index].frame ?? Rect(x: 0, y: 0, width: 0, height: 0) }
        var rows: [Row] = []
        // The first row (in creation order) a box overlaps, found through bands of the
        // screen's height: a linear search per stop was quadratic (100,000 stops: 3.35 s).
        // Rows never overlap one another (a row is started only by a box that overlaps
        // none, and rows only narrow), so a band holds few; a row stays listed in the bands
        // it first spanned, and the overlap is checked on its current span.
        var bands: [Int: [Int32]] = [:]
        var tall: [Int32] = []
        func bandRange(_ top: Double, _ bottom: Double) -> ClosedRange<Int>? {
            guard top.isFinite, bottom.isFinite, abs(top) < 1e12, abs(bottom) < 1e12 else { return nil }
            let first = Int((top / Self.bandHeight).rounded(.down)), last = Int((bottom / Self.bandHeight).rounded(.down))
            guard last >= first, last - first <= Self.maxBands else { return nil }
            return first...last
        }
        func overlaps(_ row: Row, _ box: Rect) -> Bool { row.top < box.maxY - epsilon && box.minY < row.bottom - epsilon }
        for index in run {
            let box = frame(index)
            // Edges that touch do not overlap: a hundredth of a point absorbs the rounding of
            // pixels turned into points (Compose compares whole pixels).
            var found: Int?
            if let range = bandRange(box.minY, box.maxY) {
                var best = Int.max
                for band in range {
                    for candidate in bands[band] ?? [] where Int(candidate) < best && overlaps(rows[Int(candidate)], box) {
                        best = Int(candidate)
                        break
                    }
                }
                for candidate in tall where Int(candidate) < best && overlaps(rows[Int(candidate)], box) {
                    best = Int(candidate)
                    break
                }
                if best != Int.max { found = best }
            } else {
                found = rows.firstIndex { overlaps($0, box) }
            }
            if let row = found {
                rows[row].top = max(rows[row].top, box.minY)
                rows[row].bottom = min(rows[row].bottom, box.maxY)
                rows[row].members.append(index)
            } else {
                let number = Int32(truncatingIfNeeded: rows.count)
                rows.append(Row(top: box.minY, bottom: box.maxY, members: [index]))
                if let range = bandRange(box.minY, box.maxY) {
                    for band in range { bands[band, default: []].append(number) }
                } else {
                    tall.append(number)
                }
            }
        }
        // Stable sorts: ties keep tree order, as Compose's do.
        let ordered = rows.enumerated().sorted { a, b in
            (a.element.top, a.element.bottom, a.offset) < (b.element.top, b.element.bottom, b.offset)
        }
        return ordered.flatMap { row in
            row.element.members.enumerated().sorted { a, b in
                let x = frame(a.element), y = frame(b.element)
                return (x.minX, x.minY, x.maxY, a.offset) < (y.minX, y.minY, y.maxY, b.offset)
            }.map(\.element)
        }
    }
}
