/// A tab bar an app draws itself (Flutter, a game engine) whose items an iOS capture gives as
/// images or static texts with no trait that says they take a tap: three or more elements side
/// by side along the screen's bottom edge, of one height, spanning most of its width, none a
/// control and none inside a tab bar. XCUITest says nothing of what takes a tap, so where a row
/// sits and how it is shaped is the evidence (an Android dump says what is clickable and is not
/// asked). The items are what VoiceOver announces as images or text, not as tabs or buttons.
public enum DrawnTabBar {
    /// The items of such a row, each with the number of items in its row.
    public static func items(in snapshot: Snapshot) -> [(index: Int, count: Int)] {
        guard snapshot.platform == .ios, let width = snapshot.width, let height = snapshot.height, width > 0, height > 0 else { return [] }
        let elements = snapshot.elements
        var candidates: [(index: Int, frame: Rect)] = []
        for index in elements.indices {
            let element = elements[index]
            guard element.isAccessible, element.isVisible, !element.isInteractive, !element.isSystemUI,
                element.role == .image || element.role == .text || element.role == .other,
                let frame = element.frame, frame.minY >= 0.75 * height, frame.maxY >= 0.85 * height, frame.maxY <= height + 1,
                frame.width > 0, frame.width <= width / 2, (20...120).contains(frame.height),
                !isAnnouncedTab(index, in: snapshot), !insideControl(index, in: snapshot)
            else { continue }
            candidates.append((index, frame))
            if candidates.count >= 256 { break }
        }
        // Rows: the same top and height within 3 points, not overlapping across.
        candidates.sort { ($0.frame.minY, $0.frame.minX) < ($1.frame.minY, $1.frame.minX) }
        var items: [(index: Int, count: Int)] = []
        var start = 0
        while start < candidates.count {
            let first = candidates[start].frame
            var end = start + 1
            while end < candidates.count, abs(candidates[end].frame.minY - first.minY) <= 3, abs(candidates[end].frame.height - first.height) <= 3 { end += 1 }
            var row = Array(candidates[start..<end]).sorted { $0.frame.minX < $1.frame.minX }
            // One element per place: an image and the same-framed text of one item are one.
            row = row.reduce(into: []) { kept, next in
                if let last = kept.last, next.frame.minX < last.frame.maxX - 1 { return }
                kept.append(next)
            }
            if row.count >= 3, let last = row.last, let head = row.first, last.frame.maxX - head.frame.minX >= 0.6 * width {
                items += row.map { ($0.index, row.count) }
            }
            start = end
        }
        return items
    }

    /// An item of XCUITest's own tab bar, or one the reader announces as a tab by its role.
    static func isAnnouncedTab(_ index: Int, in snapshot: Snapshot) -> Bool {
        snapshot.elements[index].role == .tab || hasTabBarAncestor(index, in: snapshot)
    }

    static func hasTabBarAncestor(_ index: Int, in snapshot: Snapshot) -> Bool {
        var current = Int(snapshot.elements[index].parent), steps = 0
        while current >= 0, steps < 4 {
            if snapshot.texts.withBytes(snapshot.elements[current].typeName, { $0.elementsEqual("XCUIElementTypeTabBar".utf8) }) { return true }
            current = Int(snapshot.elements[current].parent)
            steps += 1
        }
        return false
    }

    /// Inside a control (a button's image): the control is what is announced.
    static func insideControl(_ index: Int, in snapshot: Snapshot) -> Bool {
        var current = Int(snapshot.elements[index].parent), steps = 0
        while current >= 0, steps < 8 {
            let element = snapshot.elements[current]
            if element.isInteractive || element.role == .button || element.role == .tab { return true }
            current = Int(element.parent)
            steps += 1
        }
        return false
    }
}
