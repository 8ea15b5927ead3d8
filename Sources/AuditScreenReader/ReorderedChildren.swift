/// The order TalkBack visits the stops of an Android screen before any traversal link:
/// its tree in preorder, each node's children reordered as its `ReorderedChildrenIterator`
/// does.
///
/// A node that is not a stop is placed by its *effective* bounds — the smallest rectangle
/// holding the effective bounds of its children, kept inside its own (TalkBack's
/// `NodeCachedBoundsCalculator`); a stop, or a node with no child on screen, by its own.
/// When some child's effective bounds differ from its own, the children are reordered from
/// the second last to the first: such a child moves past the sibling after it while its
/// effective bounds come after that sibling's (the framework's stripe order: above first,
/// then left first, then top, then taller, then wider) though its own bounds come before —
/// TalkBack swaps only where its comparison of the real bounds agreed with the tree. So a
/// row whose speaking children sit to the right of the control that shares its left, top
/// and bottom edges is read after that control, as TalkBack reads it.
///
/// TalkBack's tree leaves out what ``FocusRules/isLeftOutOfTalkBacksTree(_:)`` says: the
/// children of such a node are its parent's. Left to right is assumed (TalkBack's own
/// constant; dumps do not say a layout's direction). Web content keeps its order (TalkBack
/// does not reorder a web container's children; a WebView's nodes are in reading order).
///
/// Bounded: a child moves past at most ``maxSwaps`` siblings in all (TalkBack's bubble is
/// quadratic in a parent's children); past that, the rest keep the tree's order.
enum ReorderedChildren {
    static let maxSwaps = 1_000_000
    static let epsilon = 0.01

    /// `stops` (element indices, tree order) in TalkBack's order.
    static func apply(to stops: [Int], in snapshot: Snapshot, focus: FocusRules) -> [Int] {
        let elements = snapshot.elements
        let count = elements.count
        guard stops.count > 1 else { return stops }
        var isStop = [Bool](repeating: false, count: count)
        for stop in stops { isStop[stop] = true }
        // Who is in TalkBack's tree, and the parent there (the nearest ancestor in it).
        var inTree = [Bool](repeating: false, count: count)
        var treeParent = [Int32](repeating: -1, count: count)
        var web = [Bool](repeating: false, count: count)
        for index in 0..<count {
            let element = elements[index]
            inTree[index] = isStop[index] || !focus.isLeftOutOfTalkBacksTree(index)
            let parent = Int(element.parent)
            if parent >= 0 {
                treeParent[index] = inTree[parent] ? Int32(parent) : treeParent[parent]
                web[index] = web[parent]
            }
            if element.firstChild >= 0, isWebView(element.typeName, snapshot.texts) { web[index] = true }
        }
        // Children in TalkBack's tree, in tree order; the tops under -1 (slot `count`).
        var children = [[Int32]](repeating: [], count: count + 1)
        for index in 0..<count where inTree[index] {
            let parent = Int(treeParent[index])
            children[parent >= 0 ? parent : count].append(Int32(index))
        }
        // Effective bounds, children before parents (preorder reversed).
        var effective = [Rect?](repeating: nil, count: count)
        for index in stride(from: count - 1, through: 0, by: -1) where inTree[index] {
            guard focus.reachable[index], let frame = elements[index].frame else { continue }
            if isStop[index] {
                effective[index] = frame
                continue
            }
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            var any = false
            for child in children[index] {
                guard let box = effective[Int(child)] else { continue }
                any = true
                minX = min(minX, box.minX)
                minY = min(minY, box.minY)
                maxX = max(maxX, box.maxX)
                maxY = max(maxY, box.maxY)
            }
            guard any else {
                effective[index] = frame
                continue
            }
            let left = max(minX, frame.minX), top = max(minY, frame.minY)
            let right = min(maxX, frame.maxX), bottom = min(maxY, frame.maxY)
            effective[index] = Rect(x: left, y: top, width: right - left, height: bottom - top)
        }
        func usesChildrenBounds(_ index: Int) -> Bool {
            guard let box = effective[index], let frame = elements[index].frame else { return false }
            return !same(box, frame)
        }
        var budget = maxSwaps
        for parent in 0...count {
            guard children[parent].count > 1, parent == count || !web[parent] else { continue }
            var kids = children[parent]
            guard kids.contains(where: { usesChildrenBounds(Int($0)) }) else { continue }
            var current = kids.count - 2
            while current >= 0, budget > 0 {
                let node = Int(kids[current])
                if usesChildrenBounds(node) {
                    var next = current + 1
                    while next < kids.count, budget > 0, needsSwap(node, Int(kids[next])) {
                        kids.swapAt(next - 1, next)
                        next += 1
                        budget -= 1
                    }
                }
                current -= 1
            }
            children[parent] = kids
        }
        func needsSwap(_ left: Int, _ right: Int) -> Bool {
            guard compare(effective[left], effective[right]) > 0 else { return false }
            return compare(elements[left].frame, elements[right].frame) < 0
        }
        // Preorder over the reordered tree, keeping the stops.
        var order: [Int] = []
        order.reserveCapacity(stops.count)
        var pending: [Int32] = children[count].reversed()
        while let next = pending.popLast() {
            let index = Int(next)
            if isStop[index] { order.append(index) }
            pending.append(contentsOf: children[index].reversed())
        }
        return order.count == stops.count ? order : stops
    }

    /// An Android `WebView` (its class name ends so): its content keeps the page's order.
    static func isWebView(_ type: TextRef, _ texts: TextTable) -> Bool {
        texts.withBytes(type) { bytes in bytes.count >= 7 && bytes.suffix(7).elementsEqual("WebView".utf8) }
    }

    static func same(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.minX - b.minX) < epsilon && abs(a.minY - b.minY) < epsilon && abs(a.maxX - b.maxX) < epsilon
            && abs(a.maxY - b.maxY) < epsilon
    }

    /// The framework's stripe comparison as TalkBack copies it: negative when `left` comes
    /// first, never zero; a missing box comes first.
    static func compare(_ left: Rect?, _ right: Rect?) -> Int {
        guard let left, let right else { return -1 }
        if left.maxY - right.minY <= epsilon { return -1 }
        if left.minY - right.maxY >= -epsilon { return 1 }
        func sign(_ value: Double) -> Int? { abs(value) < epsilon ? nil : (value < 0 ? -1 : 1) }
        if let order = sign(left.minX - right.minX) { return order }
        if let order = sign(left.minY - right.minY) { return order }
        if let order = sign(left.height - right.height) { return -order }
        if let order = sign(left.width - right.width) { return -order }
        return -1
    }
}
