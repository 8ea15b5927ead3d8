/// Pages stacked in one window: a subtree that covers most of the screen and holds targets,
/// beside an earlier sibling that does too — a cart page drawn over the menu it came from,
/// two copies of a page captured mid-transition. What lies in different layers is not side by side: one covers
/// the other, and a rule pairing neighbours (target spacing) pairs only within one layer.
public struct PageLayers: Sendable {
    /// Each element's layer: the element heading the page it lies in, -1 for the base.
    public let layer: [Int32]
    /// How many pages lie over the base.
    public let stacked: Int

    /// A layer's head covers at least this share of the screen, as does an earlier sibling.
    static let minimumShare = 0.8

    public init(_ snapshot: Snapshot) {
        let elements = snapshot.elements
        var layer = [Int32](repeating: -1, count: elements.count)
        var stacked = 0
        let screen = (snapshot.width ?? 0) * (snapshot.height ?? 0)
        func large(_ index: Int) -> Bool {
            guard screen > 0, let frame = elements[index].frame else { return false }
            return frame.width * frame.height >= Self.minimumShare * screen
        }
        // Whether each element's subtree holds a visible target: a page has controls of its
        // own (a full-screen background or a decoration beside a page is no page).
        var holdsTarget = [Bool](repeating: false, count: elements.count)
        for index in elements.indices.reversed() {
            let element = elements[index]
            if element.isInteractive, element.isVisible, !element.isSystemUI { holdsTarget[index] = true }
            let parent = Int(element.parent)
            if parent >= 0, holdsTarget[index] { holdsTarget[parent] = true }
        }
        // A large element holding targets, with an earlier large sibling holding targets too,
        // heads a layer; the rest inherit.
        for index in elements.indices {
            let parent = Int(elements[index].parent)
            if parent >= 0 { layer[index] = layer[parent] }
            guard parent >= 0, large(index), holdsTarget[index] else { continue }
            var sibling = Int(elements[parent].firstChild)
            var earlierLarge = false
            while sibling >= 0, sibling != index {
                if large(sibling), holdsTarget[sibling] {
                    earlierLarge = true
                    break
                }
                sibling = Int(elements[sibling].nextSibling)
            }
            if earlierLarge {
                layer[index] = Int32(index)
                stacked += 1
            }
        }
        self.layer = layer
        self.stacked = stacked
    }
}
