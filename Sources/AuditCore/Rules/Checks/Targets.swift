/// Which elements are touch targets, shared by the target rules.
public enum Targets {
    /// Interactive, visible, enabled elements with a non-empty touch frame; links inside a
    /// block of text are exempt (WCAG 2.5.8 "inline").
    public static func all(in snapshot: Snapshot) -> [(index: Int, frame: Rect)] {
        var result: [(index: Int, frame: Rect)] = []
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.isInteractive, element.isVisible, element.isEnabled, let frame = element.touchFrame, !frame.isEmpty else { continue }
            if isInlineLink(index, in: snapshot) { continue }
            result.append((index, frame))
        }
        return result
    }

    /// A link whose parent is a text element: a link within a sentence.
    public static func isInlineLink(_ index: Int, in snapshot: Snapshot) -> Bool {
        let element = snapshot.elements[index]
        guard element.role == .link || element.traits.contains(.link), element.parent >= 0 else { return false }
        return snapshot.elements[Int(element.parent)].role == .text
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
