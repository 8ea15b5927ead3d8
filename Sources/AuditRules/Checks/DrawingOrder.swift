/// Which of two elements is painted above the other. Document order is paint order — a
/// later sibling's subtree is drawn after an earlier one's — unless a parent draws its
/// children in another order, which UiAutomator2 states as each child's `drawing-order`.
enum DrawingOrder {
    /// True when the snapshot states a drawing order anywhere (else document order holds).
    static func isStated(in snapshot: Snapshot) -> Bool {
        snapshot.elements.contains { $0.drawingOrder != nil }
    }

    /// True when `earlier` (before `later` in document order, and not its ancestor) is
    /// painted above it: under their nearest common ancestor, the child holding `earlier`
    /// has the higher `drawing-order`. Walks at most 256 levels up from each; beyond that,
    /// or without both orders, document order stands.
    static func isDrawnAbove(_ earlier: Int, _ later: Int, in snapshot: Snapshot) -> Bool {
        let elements = snapshot.elements
        // The chain of ancestors of `earlier`, itself first: child → position in the chain.
        var chain: [Int: Int] = [:]
        var current = earlier
        for step in 0..<256 {
            chain[current] = step
            let parent = Int(elements[current].parent)
            if parent < 0 { break }
            current = parent
        }
        var child = later
        for _ in 0..<256 {
            let parent = Int(elements[child].parent)
            guard parent >= 0 else { return false }
            if let step = chain[parent], step > 0 {
                // `parent` is the common ancestor; the branch below it holding `earlier`:
                var branch = earlier
                while Int(elements[branch].parent) != parent { branch = Int(elements[branch].parent) }
                guard let above = elements[branch].drawingOrder, let below = elements[child].drawingOrder else { return false }
                return above > below
            }
            child = parent
        }
        return false
    }
}
