/// `screen-reader.reading-order` — the screen reader's swipe order jumps back up a column
/// against the order the screen is read by eye.
public enum ReadingOrderRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.reading-order",
        title: "Reading order against the visual order",
        wcag: ["1.3.2", "2.4.3"],
        severity: .notice,
        enabledIn: [],
        help: """
            Sighted users read a column top to bottom; a screen-reader user hears the stops in the \
            order of the accessibility tree. When the next stop is drawn clearly above the one just \
            heard, in the same column, the reader has jumped back up: a footer read before the list above \
            it, a price before its product's name, a bottom tab bar before the content. Judged on the \
            transcript: each stop against the one before it — reported when it lies above it by at least \
            `minimum-jump` of the earlier stop's height and the two share at least half of the narrower \
            one's width (a jump to the top of the next column is how columns are read). Not judged \
            across a list's edge (a header is read before the list whatever the list scrolled to), nor \
            for a stop that says nothing (silent-stop's); inside Jetpack Compose the transcript already \
            orders the stops by position, as Compose does for TalkBack. Opt-in (no shipped rule set runs it): trees list fixed bars and \
            floating buttons where their frameworks put them, and a team decides which order it means. \
            Fix: order the views in the tree as they are read (`accessibilityElements` on iOS; \
            `accessibilityTraversalBefore`/`After` or the layout's order on Android).
            """,
        examples: [
            // The price read before the product name drawn above it.
            RuleExample(
                ##"<element id="price" role="text" text="$4.99" frame="20,160,200,24"/><element id="name" role="text" text="Green tea" frame="20,120,200,30"/>"##,
                triggers: ["name"]),
            // Top to bottom.
            RuleExample(
                ##"<element id="name" role="text" text="Green tea" frame="20,120,200,30"/><element id="price" role="text" text="$4.99" frame="20,160,200,24"/>"##
            ),
            // Down the left column, then up to the right one: columns are read so.
            RuleExample(
                ##"<element id="a" role="text" text="Left top" frame="20,100,150,30"/><element id="b" role="text" text="Left bottom" frame="20,400,150,30"/><element id="c" role="text" text="Right top" frame="200,100,150,30"/>"##
            ),
            // A row's parts side by side, a little higher or lower: not a jump.
            RuleExample(
                ##"<element id="t" role="text" text="Inbox" frame="20,104,200,30"/><element id="n" role="text" text="3" frame="300,100,40,30"/>"##
            ),
            // The bottom tab bar read before the content above it.
            RuleExample(
                ##"<element id="tab" role="tab" label="Home" frame="0,790,390,54"/><element id="title" role="text" text="Today" frame="16,100,358,34"/>"##,
                triggers: ["title"]),
        ])

    public typealias Parameters = Parameter

    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}
        public let minimumJump = RuleParameter<Double>(
            "minimum-jump", default: 1, help: "how far above the previous stop, in its heights, the next one must start")
    }

    public enum ResultID: String, RuleResults {
        case backUp = "back-up"

        public var message: String {
            "The screen reader reaches \"${speech}\" after \"${other}\", which is drawn below it in the same column"
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let stops = Transcript.of(snapshot).stops
        let jump = context[Parameter.minimumJump]
        // Each element's nearest scrolling container (itself included): a list's edge.
        let scrollers = Targets.nearestAncestors(in: snapshot) { !snapshot.elements[$0].scrollAxes.isEmpty }
        func list(_ index: Int) -> Int32 { snapshot.elements[index].scrollAxes.isEmpty ? scrollers[index] : Int32(index) }
        for position in stops.indices.dropFirst() {
            if context.outOfBudget() { return }
            let before = stops[position - 1], stop = stops[position]
            // A stop that says nothing is silent-stop's.
            guard !stop.speech.isEmpty, !before.speech.isEmpty,
                let earlier = snapshot.elements[before.element].frame, let later = snapshot.elements[stop.element].frame,
                earlier.height > 0, later.height > 0, list(before.element) == list(stop.element)
            else { continue }
            let sharedWidth = min(earlier.maxX, later.maxX) - max(earlier.minX, later.minX)
            guard sharedWidth >= 0.5 * min(earlier.width, later.width), later.maxY <= earlier.minY - (jump - 1) * earlier.height,
                later.minY <= earlier.minY - jump * earlier.height
            else { continue }
            context.report(.backUp, element: stop.element, evidence: [(.speech, .string(stop.speech)), (.other, .string(before.speech))])
        }
    }
}
