import AuditModel

extension SnapshotBuilder {
    /// Narrows the axes of scrollers whose class does not say which way they scroll (a
    /// RecyclerView, a Compose `View`, an obfuscated class: ``ScrollAxes/both``) from how
    /// their children are laid out: two or more side by side in one row scroll across, in
    /// one column down, and a child that runs past the scroller on one axis only scrolls on
    /// that one. A grid, or a scroller with one child inside it, keeps both.
    ///
    /// Which way a scroller scrolls decides whether a target touching its edge may be cut
    /// off there (`target-size`): a tab in a row of tabs that touches the top of its
    /// horizontal strip is not cut in its height.
    func narrowScrollAxesFromLayout() {
        var scrollerSlot: [Int32: Int] = [:]
        for index in elements.indices where elements[index].scrollAxes == .both && elements[index].frame != nil {
            scrollerSlot[Int32(index)] = scrollerSlot.count
        }
        guard !scrollerSlot.isEmpty else { return }
        var children = [[Rect]](repeating: [], count: scrollerSlot.count)
        var scrollers = [Int](repeating: 0, count: scrollerSlot.count)
        for (index, slot) in scrollerSlot { scrollers[slot] = Int(index) }
        for element in elements {
            guard element.parent >= 0, let slot = scrollerSlot[element.parent], let frame = element.frame,
                frame.width > 0, frame.height > 0
            else { continue }
            children[slot].append(frame)
        }
        for (slot, index) in scrollers.enumerated() {
            guard let bounds = elements[index].frame,
                let axes = ScrollLayout.axes(of: bounds, children: children[slot])
            else { continue }
            elements[index].scrollAxes = axes
        }
    }
}

/// How a scroller's children lie, read for the one axis they scroll along.
enum ScrollLayout {
    /// A pixel of slack at the edges: adjacent children often share one.
    static let tolerance = 1.0

    /// The one axis the children show, or nil when they do not tell.
    static func axes(of bounds: Rect, children: [Rect]) -> ScrollAxes? {
        let pastX = children.contains { $0.minX < bounds.minX - tolerance || $0.maxX > bounds.maxX + tolerance }
        let pastY = children.contains { $0.minY < bounds.minY - tolerance || $0.maxY > bounds.maxY + tolerance }
        if pastX != pastY { return pastX ? .horizontal : .vertical }
        guard children.count >= 2 else { return nil }
        if inOneLine(children, across: true) { return .horizontal }
        if inOneLine(children, across: false) { return .vertical }
        return nil
    }

    /// Whether the frames lie one after another without overlapping along the axis
    /// (`across`: x), all sharing a band on the other.
    static func inOneLine(_ frames: [Rect], across: Bool) -> Bool {
        let sorted = frames.sorted { across ? $0.minX < $1.minX : $0.minY < $1.minY }
        var bandStart = -Double.infinity, bandEnd = Double.infinity
        for (offset, frame) in sorted.enumerated() {
            bandStart = max(bandStart, across ? frame.minY : frame.minX)
            bandEnd = min(bandEnd, across ? frame.maxY : frame.maxX)
            guard offset > 0 else { continue }
            let previous = sorted[offset - 1]
            let end = across ? previous.maxX : previous.maxY
            let start = across ? frame.minX : frame.minY
            if start < end - tolerance { return false }
        }
        return bandEnd - bandStart > tolerance
    }
}
