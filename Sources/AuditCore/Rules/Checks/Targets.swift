/// Which elements are touch targets, shared by the target rules.
public enum Targets {
    /// Interactive, visible, enabled elements with a non-empty touch frame; links inside a
    /// block of text are exempt (WCAG 2.5.8 "inline").
    public static func all(in snapshot: Snapshot) -> [(index: Int, frame: Rect)] {
        var result: [(index: Int, frame: Rect)] = []
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.isInteractive, element.isVisible, element.isEnabled, !element.isSystemUI,
                  let frame = element.touchFrame, !frame.isEmpty else { continue }
            if isInlineLink(index, in: snapshot) { continue }
            result.append((index, frame))
        }
        return result
    }

    /// Targets of the system's UI (keyboard keys, system bars, scroll indicators), left out
    /// of ``all(in:)``: counted so the report can say so.
    public static func systemUICount(in snapshot: Snapshot) -> Int {
        snapshot.elements.reduce(0) { count, element in
            count + (element.isSystemUI && element.isInteractive && element.isVisible && element.touchFrame != nil ? 1 : 0)
        }
    }

    /// A link whose parent is a text element: a link within a sentence.
    public static func isInlineLink(_ index: Int, in snapshot: Snapshot) -> Bool {
        let element = snapshot.elements[index]
        guard element.role == .link || element.traits.contains(.link), element.parent >= 0 else { return false }
        return snapshot.elements[Int(element.parent)].role == .text
    }

    /// For each element, the end of its subtree in document order: `index..<end[index]`
    /// are the element and its descendants (elements are stored in document order). So
    /// `a` is an ancestor of `b` exactly when `a < b < end[a]`: an O(1) test, where walking
    /// up the parents costs the depth (100,000 on a deeply nested screen).
    public static func subtreeEnds(in snapshot: Snapshot) -> [Int] {
        let elements = snapshot.elements
        var ends = Array(1...max(1, elements.count))
        if elements.isEmpty { return [] }
        // Children follow their parent, so one backward pass sees every descendant first.
        for index in elements.indices.reversed() {
            let parent = Int(elements[index].parent)
            if parent >= 0, ends[index] > ends[parent] { ends[parent] = ends[index] }
        }
        return ends
    }

    /// The index for the pairwise checks: every target with its subtree end.
    public static func index(_ targets: [(index: Int, frame: Rect)], ends: [Int]) -> RectIndex {
        RectIndex(targets.map { RectIndex.Item(index: $0.index, end: ends[$0.index], rect: $0.frame) })
    }

    /// True when `ancestor` is an ancestor of `index`.
    public static func isAncestor(_ ancestor: Int, of index: Int, in snapshot: Snapshot) -> Bool {
        var current = snapshot.elements[index].parent
        while current >= 0 {
            if Int(current) == ancestor { return true }
            current = snapshot.elements[Int(current)].parent
        }
        return false
    }
}
