/// A static R-tree over rectangles (sort-tile-recursive packing), for the pairwise
/// geometric checks: built in O(n log n), and a query that stops at the first match
/// visits only the branches whose box meets the query and whose summary may hold an
/// eligible item. Unlike a uniform grid, it does not degrade when many rectangles share
/// a cell (600 buttons on one 4096-point frame, identical frames, stacked sections at one
/// offset) or when frames are huge.
///
/// Each item carries its element index and the end of its subtree in document order
/// (`index..<end` are its descendants and itself): nodes keep the least `end`, the
/// greatest index and the largest width and height below them, so "an earlier element that is not an ancestor" (`end <=
/// t`) and "a later element that is not a descendant" (`index >= end(t)`) prune whole
/// branches, whatever the nesting; and a branch of thin rectangles that cannot overlap
/// a query by the area that counts is never opened (bars crossing at tiny overlaps).
public struct RectIndex: Sendable {
    public struct Item: Sendable {
        public let rect: Rect
        // 32-bit: 40 bytes an item, not 48 (an index of 100,000 targets is held while the
        // other rules run).
        private let position: Int32
        private let subtreeEnd: Int32

        public init(index: Int, end: Int, rect: Rect) {
            self.rect = rect
            position = Int32(truncatingIfNeeded: index)
            subtreeEnd = Int32(truncatingIfNeeded: end)
        }

        public var index: Int { Int(position) }
        public var end: Int { Int(subtreeEnd) }
    }

    /// One node: its box, the least subtree end and the greatest index below it, and
    /// its children as a range of `nodes` (or of `items`, for a leaf).
    struct Node: Sendable {
        var minX, minY, maxX, maxY: Double
        var summary: Summary
        var first: Int32
        var count: Int32
        var isLeaf: Bool
    }

    /// What a branch holds, for pruning: the least subtree end, the greatest index, and
    /// the widest and tallest rectangle below it.
    public struct Summary: Sendable {
        public var minEnd: Int
        public var maxIndex: Int
        public var maxWidth: Double
        public var maxHeight: Double

        static let empty = Summary(minEnd: .max, maxIndex: .min, maxWidth: 0, maxHeight: 0)

        mutating func add(_ other: Summary) {
            minEnd = min(minEnd, other.minEnd)
            maxIndex = max(maxIndex, other.maxIndex)
            maxWidth = max(maxWidth, other.maxWidth)
            maxHeight = max(maxHeight, other.maxHeight)
        }
    }

    static let fanout = 8

    private(set) var items: [Item] = []
    /// Laid out breadth first: the root is node 0, and an internal node's children are
    /// the run `first..<first + count` of `nodes`.
    private(set) var nodes: [Node] = []
    /// The root's id: 0, or -1 for an empty index.
    var root: Int { nodes.isEmpty ? -1 : 0 }
    /// Internal levels above the leaves: a query's stack holds at most `fanout` node ids per
    /// level (``first(meeting:touching:branch:match:)``).
    private var height = 0

    public init(_ input: [Item]) {
        self.init(input) { $0 }
    }

    /// The index of `values`, each made an item by `item` as it is placed: no array of
    /// items is made beside the index's own (4.8 MB at 100,000 targets).
    public init<Value>(_ values: [Value], item: (Value) -> Item) {
        guard !values.isEmpty else { return }
        items = RectIndex.tileOrder(values.count) { item(values[$0]).rect }.map { item(values[$0]) }
        // While building, node ids of each internal node's children, contiguous; the
        // breadth-first layout makes each run of children a run of `nodes` instead.
        var children: [Int32] = []
        var level: [Int] = []
        var start = 0
        while start < items.count {
            let end = min(start + RectIndex.fanout, items.count)
            level.append(makeLeaf(start..<end))
            start = end
        }
        while level.count > 1 {
            let ordered = RectIndex.tileOrder(level.count) { position in
                let node = nodes[level[position]]
                return Rect(x: node.minX, y: node.minY, width: node.maxX - node.minX, height: node.maxY - node.minY)
            }.map { level[$0] }
            var next: [Int] = []
            var position = 0
            while position < ordered.count {
                let end = min(position + RectIndex.fanout, ordered.count)
                next.append(makeInternal(Array(ordered[position..<end]), children: &children))
                position = end
            }
            level = next
            height += 1
        }
        layOutBreadthFirst(from: level[0], children: children)
    }

    /// Renumbers the nodes breadth first, so that each internal node's children are one
    /// run of `nodes` in their stored order: a query reads a node's children side by side
    /// and tests their boxes before pushing any, where it followed an id to a node
    /// anywhere in the array for each child and popped every one to test it. The order
    /// in which a query visits items (and so the item `first` returns) is unchanged.
    private mutating func layOutBreadthFirst(from top: Int, children: [Int32]) {
        var order = [top]
        order.reserveCapacity(nodes.count)
        var firstChild = [Int32](repeating: 0, count: nodes.count)
        var head = 0
        while head < order.count {
            let node = nodes[order[head]]
            if !node.isLeaf {
                firstChild[head] = Int32(order.count)
                for position in Int(node.first)..<Int(node.first + node.count) { order.append(Int(children[position])) }
            }
            head += 1
        }
        var laid: [Node] = []
        laid.reserveCapacity(order.count)
        for (position, old) in order.enumerated() {
            var node = nodes[old]
            if !node.isLeaf { node.first = firstChild[position] }
            laid.append(node)
        }
        nodes = laid
    }

    /// Sort-tile-recursive order of `count` rectangles (the positions of `rect`'s):
    /// vertical slices by centre x, each sorted by centre y, so that runs of `fanout` are
    /// compact tiles.
    private static func tileOrder(_ count: Int, rect: (Int) -> Rect) -> [Int] {
        let leaves = (count + fanout - 1) / fanout
        let slices = max(1, Int(Double(leaves).squareRoot().rounded(.up)))
        let perSlice = slices > 0 ? (count + slices - 1) / slices : count
        // Only the centres are kept to sort by: 16 bytes a rectangle, where a copy of each
        // item beside its rectangle took 80 bytes (8 MB at 100,000, held while the rules
        // beside this one hold theirs).
        let centres = (0..<count).map { position -> (x: Double, y: Double) in
            let box = rect(position)
            return (box.midX, box.midY)
        }
        // Stable orders with a total order on NaN-free centres (frames are finite).
        let byX = centres.indices.sorted { (centres[$0].x, $0) < (centres[$1].x, $1) }
        var order: [Int] = []
        order.reserveCapacity(count)
        var start = 0
        while start < byX.count {
            let end = min(start + max(perSlice, 1), byX.count)
            order += byX[start..<end].sorted { (centres[$0].y, $0) < (centres[$1].y, $1) }
            start = end
        }
        return order
    }

    private mutating func makeLeaf(_ range: Range<Int>) -> Int {
        var node = Node(
            minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity, summary: .empty,
            first: Int32(range.lowerBound), count: Int32(range.count), isLeaf: true)
        for item in items[range] {
            node.minX = min(node.minX, item.rect.minX)
            node.minY = min(node.minY, item.rect.minY)
            node.maxX = max(node.maxX, item.rect.maxX)
            node.maxY = max(node.maxY, item.rect.maxY)
            node.summary.add(Summary(minEnd: item.end, maxIndex: item.index, maxWidth: item.rect.width, maxHeight: item.rect.height))
        }
        nodes.append(node)
        return nodes.count - 1
    }

    private mutating func makeInternal(_ ids: [Int], children: inout [Int32]) -> Int {
        var node = Node(
            minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity, summary: .empty,
            first: Int32(children.count), count: Int32(ids.count), isLeaf: false)
        for id in ids {
            let child = nodes[id]
            node.minX = min(node.minX, child.minX)
            node.minY = min(node.minY, child.minY)
            node.maxX = max(node.maxX, child.maxX)
            node.maxY = max(node.maxY, child.maxY)
            node.summary.add(child.summary)
            children.append(Int32(id))
        }
        nodes.append(node)
        return nodes.count - 1
    }

    /// The first item (in the tree's order) whose rectangle meets `query` — shares area
    /// with it, or touches it when `touching` — and that `match` accepts, visiting only
    /// branches whose ``Summary`` `branch` allows. `nil` when none.
    public func first(
        meeting query: Rect, touching: Bool = false, branch: (Summary) -> Bool,
        match: (Item) -> Bool
    ) -> Item? {
        guard root >= 0 else { return nil }
        // The root is tested here, every other node before it is pushed.
        let top = nodes[root]
        guard Self.box(minX: top.minX, minY: top.minY, maxX: top.maxX, maxY: top.maxY, meets: query, touching: touching),
            branch(top.summary)
        else { return nil }
        // The nodes to visit, on the thread's stack: an array grown for every query cost
        // more than the search on screens of thousands of targets with no neighbours.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: (height + 1) * RectIndex.fanout) { stack -> Item? in
            stack[0] = Int32(truncatingIfNeeded: root)
            var pending = 1
            while pending > 0 {
                pending -= 1
                let node = nodes[Int(stack[pending])]
                let range = Int(node.first)..<Int(node.first + node.count)
                if node.isLeaf {
                    // By position, not a slice: a slice retained the items' storage for
                    // every leaf visited, and an index may be shared by rules on two threads.
                    for position in range {
                        let item = items[position]
                        let rect = item.rect
                        if Self.box(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY, meets: query, touching: touching),
                            match(item)
                        {
                            return item
                        }
                    }
                } else {
                    // The children that may hold a match, pushed in reverse so that they
                    // are visited in their stored order.
                    for position in range.reversed() {
                        let child = nodes[position]
                        if Self.box(minX: child.minX, minY: child.minY, maxX: child.maxX, maxY: child.maxY, meets: query, touching: touching),
                            branch(child.summary)
                        {
                            stack[pending] = Int32(truncatingIfNeeded: position)
                            pending += 1
                        }
                    }
                }
            }
            return nil
        }
    }

    /// True when the box `minX...maxX` × `minY...maxY` (a node's, or an item's
    /// rectangle) meets `query`: shares area with it, or touches it when `touching`.
    @inline(__always)
    private static func box(minX: Double, minY: Double, maxX: Double, maxY: Double, meets query: Rect, touching: Bool) -> Bool {
        touching
            ? minX <= query.maxX && query.minX <= maxX && minY <= query.maxY && query.minY <= maxY
            : minX < query.maxX && query.minX < maxX && minY < query.maxY && query.minY < maxY
    }
}
