/// Which elements are touch targets, shared by the target rules.
public enum Targets {
    /// Interactive, visible, enabled elements with a non-empty touch frame; links inside a
    /// block of text are exempt (WCAG 2.5.8 "inline"). Found once per snapshot for the
    /// three target rules, which run side by side: each finding its own held two or three
    /// copies at once (5 MB each at 100,000 targets).
    public static func all(in snapshot: Snapshot) -> [(index: Int, frame: Rect)] {
        snapshot.memo.value("targets") { collect(in: snapshot) }
    }

    private static func collect(in snapshot: Snapshot) -> [(index: Int, frame: Rect)] {
        var result: [(index: Int, frame: Rect)] = []
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.isInteractive, element.isVisible, element.isEnabled, !element.isSystemUI, !element.covered,
                let frame = element.touchFrame, !frame.isEmpty
            else { continue }
            if isInlineLink(index, in: snapshot) || isInnerPart(index, in: snapshot) { continue }
            result.append((index, frame))
        }
        // Held while the target rules run: a copy of its size, not of its grown capacity
        // (up to 1.3 MB more on a 100,000-element screen).
        guard result.capacity - result.count > result.count / 8 else { return result }
        return result.withUnsafeBufferPointer { Array($0) }
    }

    /// Targets that are not the app's (keyboard keys, system bars, scroll indicators, another
    /// app's window), left out
    /// of ``all(in:)``: counted so the report can say so.
    public static func systemUICount(in snapshot: Snapshot) -> Int {
        snapshot.elements.reduce(0) { count, element in
            count + (element.isSystemUI && element.isInteractive && element.isVisible && element.touchFrame != nil ? 1 : 0)
        }
    }

    /// A control inside a control of its own kind that carries the name — a SwiftUI
    /// toggle's knob (`Switch "Wi-Fi"` holding an unnamed `Switch`): part of that control,
    /// not a second target. Looks up two levels.
    public static func isInnerPart(_ index: Int, in snapshot: Snapshot) -> Bool {
        let element = snapshot.elements[index]
        guard element.role != .other, element.role != .container, element.role != .cell else { return false }
        let name = snapshot.accessibleNameRef(of: index)
        var ancestor = Int(element.parent)
        for _ in 0..<2 where ancestor >= 0 {
            let outer = snapshot.elements[ancestor]
            if outer.role == element.role, outer.isInteractive {
                let outerName = snapshot.accessibleNameRef(of: ancestor)
                if name.isAbsent || snapshot.texts.string(name) == snapshot.texts.string(outerName) { return true }
            }
            ancestor = Int(outer.parent)
        }
        return false
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
    /// Made once per snapshot: five rules ask for it, side by side.
    public static func subtreeEnds(in snapshot: Snapshot) -> [Int] {
        snapshot.memo.value("subtree-ends") { makeSubtreeEnds(in: snapshot) }
    }

    private static func makeSubtreeEnds(in snapshot: Snapshot) -> [Int] {
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
        RectIndex(targets) { RectIndex.Item(index: $0.index, end: ends[$0.index], rect: $0.frame) }
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

extension Targets {
    /// For each element, the nearest ancestor that passes `test`, or -1: one pass in
    /// document order (parents come first), so asking costs O(1) however deep the tree.
    public static func nearestAncestors(in snapshot: Snapshot, where test: (Int) -> Bool) -> [Int32] {
        let elements = snapshot.elements
        var nearest = [Int32](repeating: -1, count: elements.count)
        for index in elements.indices {
            let parent = Int(elements[index].parent)
            guard parent >= 0 else { continue }
            nearest[index] = test(parent) ? Int32(parent) : nearest[parent]
        }
        return nearest
    }

    /// For each element, whether some descendant passes `test`: one backward pass (children
    /// follow their parents), so a chain of 100,000 costs no more than a flat list.
    public static func hasDescendant(in snapshot: Snapshot, where test: (Int) -> Bool) -> [Bool] {
        let elements = snapshot.elements
        var found = [Bool](repeating: false, count: elements.count)
        for index in elements.indices.reversed() {
            let parent = Int(elements[index].parent)
            if parent >= 0, found[index] || test(index) { found[parent] = true }
        }
        return found
    }

    /// Why a target's frame on screen may not be its size: it runs past the screen's edge, or it
    /// touches, in a dimension where it is small, the edge of the scrolling ancestor that
    /// may have cut it off (ATF's "against scrollable edge"). `short` says which dimensions
    /// are below the minimum.
    public enum Clipping: Equatable, Sendable {
        case screen
        case scrollingAncestor(Int)
    }

    /// How many scrolling ancestors of a target are asked whether they cut it (nested
    /// lists are a few deep; a hostile chain of scrollers costs no more than this).
    public static let scrollingAncestorsChecked = 16

    /// `scrollers` gives each element's nearest scrolling ancestor (``nearestAncestors(in:where:)``):
    /// each of the target's scrolling ancestors, nearest first, may cut it — a row of a
    /// horizontal strip is not cut in its height by the strip, but may be by the page that
    /// scrolls the strip down. A target is in doubt only when every dimension where it is
    /// small may be cut: a chip 40 dp high at the end of a strip that scrolls across is small
    /// for certain, whatever its width.
    /// What may cut a target in each of its small dimensions, and whether that leaves its
    /// size in doubt (every small dimension may be cut).
    public struct Cuts: Equatable {
        public var width: Clipping?
        public var height: Clipping?
        /// Why the size is in doubt, `nil` when a small dimension is whole.
        public var doubt: Clipping?
    }

    public static func clipping(of frame: Rect, short: (width: Bool, height: Bool), target: Int, scrollers: [Int32], in snapshot: Snapshot) -> Clipping? {
        cuts(of: frame, short: short, target: target, scrollers: scrollers, in: snapshot).doubt
    }

    public static func cuts(of frame: Rect, short: (width: Bool, height: Bool), target: Int, scrollers: [Int32], in snapshot: Snapshot) -> Cuts {
        guard short.width || short.height else { return Cuts() }
        let tolerance = 0.5
        var cutWidth: Clipping?, cutHeight: Clipping?
        // Partly outside: on the screen, and past its edge. A target wholly off it (a row
        // further down an iOS list) is measured whole.
        if let width = snapshot.width, let height = snapshot.height, frame.maxX > 0, frame.minX < width, frame.maxY > 0, frame.minY < height {
            if short.width, frame.minX < -tolerance || frame.maxX > width + tolerance { cutWidth = .screen }
            if short.height, frame.minY < -tolerance || frame.maxY > height + tolerance { cutHeight = .screen }
        }
        // Only a capture of visible frames cuts a target at its scroller's edge.
        if snapshot.capabilities.contains(.visibleFrames) {
            var scroller = Int(scrollers[target])
            var asked = 0
            while scroller >= 0, asked < scrollingAncestorsChecked, (short.width && cutWidth == nil) || (short.height && cutHeight == nil) {
                let cut = cuts(frame, short: short, scroller: scroller, in: snapshot, tolerance: tolerance)
                if cut.width, cutWidth == nil { cutWidth = .scrollingAncestor(scroller) }
                if cut.height, cutHeight == nil { cutHeight = .scrollingAncestor(scroller) }
                scroller = Int(scrollers[scroller])
                asked += 1
            }
        }
        // Every small dimension may be cut: the size is in doubt. The screen's edge first.
        guard !short.width || cutWidth != nil, !short.height || cutHeight != nil else {
            return Cuts(width: cutWidth, height: cutHeight, doubt: nil)
        }
        let reasons = [cutWidth, cutHeight].compactMap { $0 }
        return Cuts(width: cutWidth, height: cutHeight, doubt: reasons.first { $0 == .screen } ?? reasons.first)
    }

    private static func cuts(
        _ frame: Rect, short: (width: Bool, height: Bool), scroller: Int, in snapshot: Snapshot, tolerance: Double
    ) -> (width: Bool, height: Bool) {
        guard let edges = snapshot.elements[scroller].frame else { return (false, false) }
        let axes = snapshot.elements[scroller].scrollAxes
        // A target touching both edges fills the scroller in that dimension: the tabs of a
        // strip as tall as they are (a dump of an obfuscated class gives no axis, so the
        // strip may scroll either way) are not cut in their height, whichever way it scrolls.
        let fillsX = frame.minX <= edges.minX + tolerance && frame.maxX >= edges.maxX - tolerance
        let fillsY = frame.minY <= edges.minY + tolerance && frame.maxY >= edges.maxY - tolerance
        let cutX = short.width && !fillsX && axes.contains(.horizontal) && (frame.minX <= edges.minX + tolerance || frame.maxX >= edges.maxX - tolerance)
        let cutY = short.height && !fillsY && axes.contains(.vertical) && (frame.minY <= edges.minY + tolerance || frame.maxY >= edges.maxY - tolerance)
        return (cutX, cutY)
    }
}
