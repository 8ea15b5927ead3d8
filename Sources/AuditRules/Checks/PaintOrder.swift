/// What is painted over an element in a screenshot: an element later in document order
/// (drawn after it) that is not inside it and covers half of it or more. Its pixels then
/// show the cover, not the element (rows under a tab bar, a card under a floating
/// button), so colours read there would be wrong. Full-screen layers are left out: they are
/// transparent containers, or scrims whose dimming the user really sees; so are empty
/// leaves (no text, name, image or children): ripple and touch layers, which Compose and
/// many views lay over their content with the content's bounds.
struct PaintOrder: Sendable {
    private let index: RectIndex
    private let ends: [Int]
    private let screenArea: Double

    init(_ snapshot: Snapshot) {
        ends = Targets.subtreeEnds(in: snapshot)
        var items: [RectIndex.Item] = []
        for position in snapshot.elements.indices {
            let element = snapshot.elements[position]
            guard element.isVisible, !element.isHidden, let frame = element.frame, frame.width > 0, frame.height > 0 else { continue }
            let empty =
                element.firstChild < 0 && element.role != .image && snapshot.visibleTextRef(of: position).isAbsent
                && snapshot.texts.isBlank(element.label) && snapshot.texts.isBlank(element.image)
            guard !empty else { continue }
            items.append(RectIndex.Item(index: position, end: ends[position], rect: frame))
        }
        index = RectIndex(items)
        let screen = snapshot.screenshot.map { $0.screenWidth * $0.screenHeight } ?? 0
        screenArea = screen > 0 ? screen : .infinity
    }

    /// The first element painted over at least half of `frame` (`position`'s), if any.
    func cover(of position: Int, frame: Rect) -> Int? {
        let end = ends.indices.contains(position) ? ends[position] : position + 1
        let area = frame.width * frame.height
        guard area > 0 else { return nil }
        return index.first(meeting: frame, branch: { $0.maxIndex >= end }) { item in
            guard item.index >= end, item.rect.width * item.rect.height < 0.6 * screenArea else { return false }
            let overlapWidth = min(frame.maxX, item.rect.maxX) - max(frame.minX, item.rect.minX)
            let overlapHeight = min(frame.maxY, item.rect.maxY) - max(frame.minY, item.rect.minY)
            return overlapWidth * overlapHeight >= 0.5 * area
        }?.index
    }
}
