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

    /// Compose's rows: see the type's documentation.
    static func rows(_ run: [Int], in snapshot: Snapshot) -> [Int] {
        struct Row {
            var top: Double
            var bottom: Double
            var members: [Int]
        }
        func frame(_ index: Int) -> Rect { snapshot.elements[index].frame ?? Rect(x: 0, y: 0, width: 0, height: 0) }
        var rows: [Row] = []
        for index in run {
            let box = frame(index)
            // Edges that touch do not overlap: a hundredth of a point absorbs the rounding of
            // pixels turned into points (Compose compares whole pixels).
            if let row = rows.firstIndex(where: { $0.top < box.maxY - epsilon && box.minY < $0.bottom - epsilon }) {
                rows[row].top = max(rows[row].top, box.minY)
                rows[row].bottom = min(rows[row].bottom, box.maxY)
                rows[row].members.append(index)
            } else {
                rows.append(Row(top: box.minY, bottom: box.maxY, members: [index]))
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
