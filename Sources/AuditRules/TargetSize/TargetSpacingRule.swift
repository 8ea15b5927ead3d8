/// `target-spacing` — two distinct targets whose touch areas overlap or coincide: a tap
/// meant for one can land on the other (WCAG 2.5.8's intent).
public enum TargetSpacingRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "target-spacing",
        title: "Overlapping touch targets",
        wcag: ["2.5.8"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Two targets that are not nested in one another should not share touch area: where they \
            overlap, the target painted above takes the taps, and the one below may be left too little \
            of its own to hit (identical bounds are `target-duplicate`'s). The one above is the later in \
            document order, unless Android's `drawing-order` puts the earlier on top. A target that holds \
            all of another is a layer beneath it, whatever the order says, as if nested in the tree (a \
            bottom sheet's touch-outside scrim, a card's tap area, a full-screen player under its own \
            "Enter fullscreen" button): a framework hands the tap to what is inside. A \
            finding needs the target below to keep no strip of its own at least `minimum-free-size` \
            (24 pt, WCAG 2.5.8's size) in both dimensions; overlaps under a tenth of the smaller target \
            (`minimum-overlap-share`: neighbours that touch) are not findings either. Reported on the \
            target above. Targets of two pages stacked in one window (a page drawn over the one it came from, \
            two copies of a page captured mid-transition: a subtree covering most of the screen beside an \
            earlier one that does too) are not paired: one page covers the other. Nor is a target that \
            scrolls under one outside its scrolling container (a list's row under a floating action button \
            or a sticky bar): a scroll brings it out whole. Fix: separate the targets or \
            shrink the hit areas so they do not overlap.
            """,
        examples: [
            // A page drawn over the one it came from: its button over the page beneath is not
            // a neighbour of the targets there.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="menu" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="item" class="android.widget.Button" text="Add" package="com.example" clickable="true" enabled="true" bounds="[40,2000][540,2200]"/></node><node resource-id="cart" class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="checkout" class="android.widget.Button" text="Checkout" package="com.example" clickable="true" enabled="true" bounds="[0,2050][1080,2250]"/></node></node></hierarchy>"##
            ),
            // A floating action button over a row of the list beneath it: the row scrolls out.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,0][1080,2400]"><node resource-id="more" class="android.widget.TextView" text="All" package="com.example" clickable="true" enabled="true" bounds="[900,1980][1060,2100]"/></node><node resource-id="fab" class="com.google.android.material.floatingactionbutton.FloatingActionButton" content-desc="Post" package="com.example" clickable="true" enabled="true" bounds="[860,1960][1060,2160]"/></node></hierarchy>"##
            ),
            // B covers most of A: A keeps a 20-pt strip of its own.
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="20,100,100,44"/>"##, triggers: ["b"]),
            // B takes a tenth of A's width: A keeps 90 × 44 pt of its own, a tap on A lands on A.
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="90,100,100,44"/>"##),
            // A back arrow partly over a search field: the field keeps most of its width.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.EditText" text="Search in mail" package="com.example" clickable="true" enabled="true" drawing-order="1" bounds="[42,130][1038,277]"/><node class="android.widget.ImageButton" content-desc="Back" package="com.example" clickable="true" enabled="true" drawing-order="2" bounds="[0,119][126,266]"/></node></hierarchy>"##
            ),
            // A full-screen player drawn after the button it holds: the button is still above.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.view.View" content-desc="Enter fullscreen" package="com.example" clickable="true" enabled="true" drawing-order="1" bounds="[940,500][1060,620]"/><node class="android.view.View" content-desc="Video player" package="com.example" clickable="true" enabled="true" drawing-order="2" bounds="[0,0][1080,640]"/></node></hierarchy>"##
            ),
            // Identical bounds are target-duplicate's.
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="0,100,100,44"/>"##),
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="100,100,100,44"/>"##),
            RuleExample(
                ##"<element id="c" role="cell" interactive="true" label="Row" frame="0,100,390,60"><element id="s" role="switch" label="On" frame="320,110,51,31"/></element>"##),
            // Neighbours touching by 4% of the smaller: not an ambiguous tap.
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="96,100,100,44"/>"##),
            // Android's drawing order puts the earlier sibling on top: reported on it (the FAB
            // leaves the chip below it a 12-dp sliver).
            RuleExample(
                "", triggers: ["fab"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="fab" class="android.widget.ImageButton" content-desc="Compose" package="com.example" clickable="true" enabled="true" drawing-order="2" bounds="[800,1800][1000,2000]"/><node resource-id="chip" class="android.widget.Button" text="Undo" package="com.example" clickable="true" enabled="true" drawing-order="1" bounds="[770,1830][1040,1950]"/></node></hierarchy>"##
            ),
            // A full-screen clickable scrim underneath a sheet's button: the button is above.
            RuleExample(##"<element id="scrim" role="button" label="Dismiss" frame="0,0,390,844"/><element id="ok" role="button" label="OK" frame="20,700,350,50"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case overlap

        public var message: String { "Target overlaps ${other} by ${overlap} ${unit}²" }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let minimumOverlap = RuleParameter<Double>("minimum-overlap", default: 1, help: "overlap area in square points that counts")
        public let minimumOverlapShare = RuleParameter<Double>(
            "minimum-overlap-share", default: 0.1,
            help: "share of the smaller target's area an overlap must cover to count")
        public let minimumFreeSize = RuleParameter<Double>(
            "minimum-free-size", default: 24,
            help: "width and height in points of the strip of its own the target below must keep")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let minimumOverlap = context[Parameter.minimumOverlap]
        let minimumShare = context[Parameter.minimumOverlapShare]
        let minimumFree = context[Parameter.minimumFreeSize]
        let targets = Targets.all(in: snapshot)
        guard targets.count > 1 else { return }
        let ends = Targets.subtreeEnds(in: snapshot)
        let index = Targets.index(targets, ends: ends)
        let drawingOrderStated = DrawingOrder.isStated(in: snapshot)
        // Pages stacked in one window: targets of different pages are not neighbours.
        let layers = PageLayers(snapshot)
        // Each target's nearest scrolling ancestor: a target that scrolls under one outside
        // its scroller (a floating action button, a sticky bar) can be scrolled out from under it.
        let scrollers = Targets.nearestAncestors(in: snapshot) { !snapshot.elements[$0].scrollAxes.isEmpty }
        // Identical bounds are `target-duplicate`'s: a target with an earlier twin that is not
        // its ancestor is left to it (per frame, the earlier target whose subtree ends first;
        // one pass in document order), and no search runs for it — a screen of 100,000
        // identical frames stays linear.
        // (32-bit positions: an entry of 40 bytes rather than 48, held with the others.)
        var sameFrame = RectTable<(end: Int32, index: Int32)>(capacity: targets.count)
        for target in targets {
            if context.outOfBudget() { return }
            let frame = target.frame, position = target.index
            let earlierSame = sameFrame[frame]
            if earlierSame.map({ ends[position] < Int($0.end) }) ?? true {
                sameFrame[frame] = (Int32(truncatingIfNeeded: ends[position]), Int32(truncatingIfNeeded: position))
            }
            if let earlierSame, Int(earlierSame.end) <= position { continue }
            // Each pair once, reported on the later target: an earlier target that is not
            // an ancestor and overlaps by the area that counts. Branches holding only
            // ancestors and later targets, or only rectangles too thin to overlap by that
            // much, are never opened.
            var earlierOnTop = false
            let found = index.first(
                meeting: frame,
                branch: { summary in
                    summary.minEnd <= position
                        && min(frame.width, summary.maxWidth) * min(frame.height, summary.maxHeight) >= minimumOverlap
                }
            ) { other in
                // Identical bounds are `target-duplicate`'s.
                guard other.end <= position, other.rect != frame, layers.layer[other.index] == layers.layer[position] else { return false }
                let shared = overlap(frame, other.rect)
                guard shared >= minimumOverlap,
                    shared >= minimumShare * min(frame.width * frame.height, other.rect.width * other.rect.height)
                else { return false }
                // The one underneath may be a layer the one above takes the taps of. The
                // drawing order is asked once per candidate and kept for the report.
                // A target that holds all of the other is a layer beneath it, whatever the
                // order says: nested as if in the tree, not a neighbour to mistake.
                if holds(other.rect, frame) || holds(frame, other.rect) { return false }
                // Frames that are one frame but for a pixel or two (a tab and its clickable
                // root): one target drawn twice, `target-duplicate`'s question, not spacing.
                if shared >= 0.9 * max(frame.width * frame.height, other.rect.width * other.rect.height) { return false }
                earlierOnTop = drawingOrderStated && DrawingOrder.isDrawnAbove(other.index, position, in: snapshot)
                let (aboveRect, belowRect) = earlierOnTop ? (other.rect, frame) : (frame, other.rect)
                // The one below scrolls under the one above (a list's row under a floating
                // button or a sticky bar): a scroll brings it out, whole.
                let (aboveIndex, belowIndex) = earlierOnTop ? (other.index, position) : (position, other.index)
                let scroller = Int(scrollers[belowIndex])
                if scroller >= 0, !(scroller < aboveIndex && aboveIndex < ends[scroller]) { return false }
                // The one below is hit where the one above is not: a finding when what it
                // keeps of its own is too small to aim at.
                return !keepsStrip(belowRect, uncoveredBy: aboveRect, minimum: minimumFree)
            }
            guard let other = found else { continue }
            // Reported on the target painted above: the later one, unless the drawing order
            // puts the earlier one on top.
            let (above, below) = earlierOnTop ? (other.index, position) : (position, other.index)
            let name = snapshot.node(below).id ?? snapshot.path(of: below)
            context.report(
                ResultID.overlap, element: above,
                evidence: [
                    (.other, .string(name)), (.overlap, .number(overlap(frame, other.rect))), (.unit, .string(snapshot.platform.sizeUnit)),
                ])
        }
    }

    /// True when `outer` holds all of `inner`.
    static func holds(_ outer: Rect, _ inner: Rect) -> Bool {
        outer.minX <= inner.minX && outer.minY <= inner.minY && outer.maxX >= inner.maxX && outer.maxY >= inner.maxY
    }

    /// True when `below` keeps, outside `above`, a strip of its own at least `minimum`
    /// points in both dimensions: the part left of, right of, above or below the overlap.
    static func keepsStrip(_ below: Rect, uncoveredBy above: Rect, minimum: Double) -> Bool {
        let fullHeight = below.height >= minimum, fullWidth = below.width >= minimum
        return (fullHeight && above.minX - below.minX >= minimum) || (fullHeight && below.maxX - above.maxX >= minimum)
            || (fullWidth && above.minY - below.minY >= minimum) || (fullWidth && below.maxY - above.maxY >= minimum)
    }

    /// The area two rectangles share (negative or zero when they do not meet).
    static func overlap(_ a: Rect, _ b: Rect) -> Double {
        (min(a.maxX, b.maxX) - max(a.minX, b.minX)) * (min(a.maxY, b.maxY) - max(a.minY, b.minY))
    }
}
