/// Two copies of one page in one capture: a dump taken mid-transition holds the page that
/// is leaving and the same page arriving (a fragment replaced by itself, an activity
/// started twice), side by side in the tree and on top of each other on screen. Every
/// finding on that page may then be reported twice, and neither copy is wrong: the capture
/// is. `snapshot.unauditable` says so, so the reader captures again once the screen has
/// settled.
///
/// Two *copies* are sibling elements, each covering most of the screen (``pageShare``),
/// each holding at least ``minimumNames`` named elements (an id, a text or a label), of
/// which at least ``sameShare`` of the smaller one's names recur in the other. An element
/// nested in a full-screen container is not its sibling (nested containers are never
/// copies), and two pages that differ (a cart over its menu, Flutter's layers) share few
/// names. A copy already covered by a page drawn over it (``CoveredContent``) is left out
/// and not audited twice: not said again.
struct StackedCopies {
    /// The first copy, the second, the names they share and the smaller one's names.
    let first: Int, second: Int, shared: Int, names: Int

    /// Share of the screen each copy's frame covers.
    static let pageShare = 0.8
    /// Named elements each copy holds, at least.
    static let minimumNames = 5
    /// Share of the smaller copy's names the other holds too.
    static let sameShare = 0.7
    /// Full-screen siblings compared under one parent, at most (the first ones).
    static let maximumPages = 8
    /// Elements whose names are counted, at most, over the whole capture: nested copies of
    /// copies would otherwise count the same deep subtree once per level.
    static let maximumVisits = 2_000_000

    /// The first two copies of a page the capture holds, or nil.
    static func find(in snapshot: Snapshot) -> StackedCopies? {
        let elements = snapshot.elements, texts = snapshot.texts
        let width = snapshot.width ?? snapshot.roots.compactMap { elements[$0].frame?.width }.max()
        let height = snapshot.height ?? snapshot.roots.compactMap { elements[$0].frame?.height }.max()
        guard let width, let height, width > 0, height > 0, elements.count > 2 * minimumNames else { return nil }
        let screen = width * height
        func isPage(_ index: Int) -> Bool {
            let element = elements[index]
            guard let frame = element.frame, element.visible != false, !element.covered, !element.isSystemUI else { return false }
            return max(0, frame.width) * max(0, frame.height) >= pageShare * screen
        }
        // Subtree ends: `index..<ends[index]` is element `index` and what it holds.
        var ends = Array(1...elements.count)
        for index in elements.indices.reversed() {
            let parent = Int(elements[index].parent)
            if parent >= 0, ends[index] > ends[parent] { ends[parent] = ends[index] }
        }
        // The names a subtree holds, counted: an id, a text or a label, each hashed.
        var visits = 0
        func names(_ page: Int) -> [UInt64: Int] {
            var counts: [UInt64: Int] = [:]
            visits += ends[page] - page
            guard visits <= maximumVisits else { return counts }
            for index in page..<ends[page] {
                let element = elements[index]
                for ref in [element.id, element.text, element.label] where !texts.isBlank(ref) {
                    counts[texts.hash(ref), default: 0] += 1
                }
            }
            return counts
        }
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            var pages: [Int] = []
            var child = Int(elements[parent].firstChild)
            while child >= 0 {
                if pages.count < maximumPages, isPage(child) { pages.append(child) }
                child = Int(elements[child].nextSibling)
            }
            guard pages.count >= 2 else { continue }
            let counted = pages.map(names)
            if visits > maximumVisits { return nil }
            for first in pages.indices {
                for second in pages.indices where second > first {
                    let a = counted[first], b = counted[second]
                    let sizeA = a.values.reduce(0, +), sizeB = b.values.reduce(0, +)
                    guard min(sizeA, sizeB) >= minimumNames else { continue }
                    let shared = a.reduce(0) { $0 + min($1.value, b[$1.key] ?? 0) }
                    guard Double(shared) >= sameShare * Double(min(sizeA, sizeB)) else { continue }
                    return StackedCopies(first: pages[first], second: pages[second], shared: shared, names: min(sizeA, sizeB))
                }
            }
        }
        return nil
    }
}

extension StackedCopies {
    /// A page of five named elements, for the rule examples.
    static let examplePage =
        ##"<element id="title" role="header" text="Menu" frame="16,60,200,30"/><element id="soup" role="button" label="Soup" frame="16,120,358,44"/><element id="salad" role="button" label="Salad" frame="16,170,358,44"/><element id="bread" role="button" label="Bread" frame="16,220,358,44"/><element id="cart" role="button" label="Cart" frame="16,700,358,50"/>"##
}
