/// Content painted over by a page drawn above it: a launcher's app drawer over its
/// workspace, the page a fragment transition leaves under its successor, the screen behind
/// a modal sheet. Nobody can see or touch it, and a screen reader does not reach it, so it
/// is not the app's screen to judge: marked ``Element/covered`` (its subtree too) and left
/// out, and counted, as the system's UI is.
///
/// A *page* is an element whose frame covers nearly the whole screen and holds, itself or
/// below it, a full-screen-sized container of real content (a list, a grid, a form of five
/// elements or more): a full-screen overlay that holds only a floating button or a snackbar
/// is transparent and covers nothing. It covers its siblings drawn before it — a lower
/// Android `drawing-order`; document order is no evidence (XCUITest lists transparent
/// full-screen windows after the app's), so without one nothing is covered — whose frames lie
/// inside its own, if they hold something or act, and are not more than four times the
/// page's size (a background picture alone may show
/// through a page that has no background).
enum CoveredContent {
    /// Share of the screen a page's frame covers.
    static let pageShare = 0.95
    /// Share of the screen the content container inside a page covers.
    static let contentShare = 0.7
    /// Elements below that container that make it content, not an empty layer.
    static let contentElements = 5

    /// Marks what pages cover; returns how many elements that is.
    @discardableResult
    static func mark(_ elements: inout [Element], screenWidth: Double?, screenHeight: Double?) -> Int {
        guard let width = screenWidth, let height = screenHeight, width > 0, height > 0, elements.count > 1 else { return 0 }
        // Without a stated drawing order nothing is covered (see above): no pass to make.
        guard elements.contains(where: { $0.drawingOrder != nil }) else { return 0 }
        let screen = width * height
        // Subtree ends (children follow their parents) and subtree sizes, one backward pass.
        var ends = Array(1...elements.count)
        for index in elements.indices.reversed() {
            let parent = Int(elements[index].parent)
            if parent >= 0, ends[index] > ends[parent] { ends[parent] = ends[index] }
        }
        func area(_ index: Int) -> Double { elements[index].frame.map { max(0, $0.width) * max(0, $0.height) } ?? 0 }
        // Whether a subtree holds a content container: one backward pass.
        var holdsContent = [Bool](repeating: false, count: elements.count)
        for index in elements.indices.reversed() {
            if ends[index] - index - 1 >= contentElements, area(index) >= contentShare * screen, elements[index].visible != false {
                holdsContent[index] = true
            }
            let parent = Int(elements[index].parent)
            if parent >= 0, holdsContent[index] { holdsContent[parent] = true }
        }
        var covered = 0
        for page in elements.indices where holdsContent[page] && area(page) >= pageShare * screen && elements[page].visible != false {
            let parent = Int(elements[page].parent)
            guard parent >= 0, let pageFrame = elements[page].frame else { continue }
            let pageOrder = elements[page].drawingOrder
            var sibling = Int(elements[parent].firstChild)
            while sibling >= 0 {
                defer { sibling = Int(elements[sibling].nextSibling) }
                guard sibling != page, !elements[sibling].covered else { continue }
                // Only a stated drawing order says which is on top: document order does not
                // (XCUITest lists transparent full-screen windows after the app's).
                guard let pageOrder, let order = elements[sibling].drawingOrder else { continue }
                let below = order < pageOrder
                // A leaf that does nothing (a background picture) may show through a page
                // with no background of its own: only content is taken for covered.
                let isContent = elements[sibling].firstChild >= 0 || elements[sibling].interactive == true
                // A page holds no less than a quarter of what it would cover: a small overlay
                // (a floating tool's 6 views) over a full page (99) is not what is seen.
                let holdsEnough = 4 * (ends[page] - page) >= ends[sibling] - sibling
                guard below, isContent, holdsEnough, let frame = elements[sibling].frame, frame.width > 0, frame.height > 0,
                    pageFrame.minX <= frame.minX + 1, pageFrame.minY <= frame.minY + 1,
                    pageFrame.maxX >= frame.maxX - 1, pageFrame.maxY >= frame.maxY - 1
                else { continue }
                for index in sibling..<ends[sibling] where !elements[index].covered {
                    elements[index].covered = true
                    covered += 1
                }
            }
        }
        return covered
    }
}
