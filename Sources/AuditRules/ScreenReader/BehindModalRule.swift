/// `screen-reader.behind-modal` — a dialog drawn over the screen that the screen reader does
/// not treat as modal: swiping on from the dialog reaches the content dimmed under it.
public enum BehindModalRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.behind-modal",
        title: "Screen reader reaches the content behind a dialog",
        wcag: ["2.4.3", "1.3.2"],
        severity: .warning,
        enabledIn: [.wcag, .ios, .android],
        help: """
            A dialog or sheet drawn in the screen's own layout — a full-screen scrim that dismisses it \
            when tapped, the dialog's panel above it — looks modal but is not to a screen reader: after \
            the dialog's last stop, the next swipe lands on the content dimmed underneath, which sighted \
            users cannot touch. Judged on the screen reader's transcript: a scrim (a nameless leaf over at \
            least `scrim-share` of the screen, clickable or named as a scrim, dim layer, backdrop, overlay \
            or `touch_outside`), a panel painted above it whose stops lie within `panel-share` of the screen, \
            and stops of the content painted below it. A modal the capture declares (`modal="true"`, an alert) confines the reader and is \
            not reported; a dialog in a window of its own (Android's `Dialog`, a bottom-sheet dialog) is \
            captured without the content under it. Fix: present the dialog in its own window, or mark it \
            modal (`accessibilityViewIsModal = true` on iOS; on Android \
            `importantForAccessibility="noHideDescendants"` on the content while the dialog is open, as \
            Material's SearchView does).
            """,
        examples: [
            RuleExample(screen(scrim: #"id="scrim" clickable="true""#), triggers: ["panel"]),
            RuleExample(screen(scrim: #"id="dim_background""#), triggers: ["panel"]),
            // A bottom sheet inside a full-screen layout: its stops span little of the screen.
            RuleExample(
                ##"<element id="root" role="container" frame="0,0,390,844"><element id="list" role="container" frame="0,0,390,844"><element role="text" text="Inbox" frame="16,100,200,30"/></element><element id="touch_outside" role="other" clickable="true" frame="0,0,390,844"/><element id="coordinator" role="container" frame="0,0,390,844"><element id="sheet" role="container" frame="0,600,390,244"><element role="button" label="Share" frame="16,620,358,48"/><element role="button" label="Copy link" frame="16,680,358,48"/></element></element></element>"##,
                triggers: ["coordinator"]),
            // A page of stops over the wallpaper's scrim (a launcher's app drawer) is no dialog.
            RuleExample(
                ##"<element id="root" role="container" frame="0,0,390,844"><element id="list" role="container" frame="0,0,390,844"><element role="text" text="Inbox" frame="16,100,200,30"/></element><element id="scrim_view" role="other" frame="0,0,390,844"/><element id="apps" role="container" frame="0,0,390,844"><element role="button" label="Photos" frame="16,60,80,80"/><element role="button" label="Clock" frame="16,740,80,80"/><element role="button" label="Mail" frame="294,740,80,80"/></element></element>"##
            ),
            // Declared modal: the reader stays in the dialog.
            RuleExample(screen(scrim: #"id="scrim" clickable="true""#, panel: #"modal="true""#)),
            // A transparent full-screen leaf that neither dismisses nor is named as a scrim.
            RuleExample(screen(scrim: #"id="layer""#)),
            // The scrim painted first: the content is above it, nothing is behind.
            RuleExample(
                ##"<element id="root" role="container" frame="0,0,390,844"><element id="scrim" role="other" clickable="true" frame="0,0,390,844"/><element id="list" role="container" frame="0,0,390,844"><element role="text" text="Inbox" frame="16,100,200,30"/></element></element>"##
            ),
            // A scrim painted under nothing: no dialog is open.
            RuleExample(
                ##"<element id="root" role="container" frame="0,0,390,844"><element id="list" role="container" frame="0,0,390,844"><element role="text" text="Inbox" frame="16,100,200,30"/></element><element id="scrim" role="other" clickable="true" frame="0,0,390,844"/></element>"##
            ),
        ])

    /// A list of messages under a full-screen leaf (with `scrim`'s attributes, its id among
    /// them) and a dialog panel (with `panel`'s).
    static func screen(scrim: String, panel: String = "") -> String {
        ##"<element id="root" role="container" frame="0,0,390,844">"##
            + ##"<element id="list" role="container" frame="0,0,390,844"><element role="text" text="Inbox" frame="16,100,200,30"/><element role="button" label="Compose" frame="300,760,56,56"/></element>"##
            + ##"<element role="other" \##(scrim) frame="0,0,390,844"/>"##
            + ##"<element id="panel" role="container" \##(panel) frame="20,300,350,200"><element role="text" text="Delete this message?" frame="40,320,300,30"/><element role="button" label="Delete" frame="40,420,140,44"/></element>"##
            + "</element>"
    }

    public typealias Parameters = Parameter

    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}
        public let scrimShare = RuleParameter<Double>("scrim-share", default: 0.9, help: "share of the screen a scrim covers")
        public let panelShare = RuleParameter<Double>(
            "panel-share", default: 0.8, help: "largest share of the screen the stops of a dialog's panel span")
    }

    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.other]

        case reachable

        public var message: String {
            "With this dialog open, the screen reader still reaches the content under it (stops: ${count}; the first says \"${speech}\")"
        }
    }

    /// Words that name a dimming layer in an id.
    static let scrimWords = ["scrim", "dim", "backdrop", "overlay", "touch_outside", "outside"]

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        let transcript = Transcript.of(snapshot)
        guard !transcript.stops.isEmpty else { return }
        let screenWidth = snapshot.width ?? snapshot.roots.compactMap { elements[$0].frame?.width }.max() ?? 0
        let screenHeight = snapshot.height ?? snapshot.roots.compactMap { elements[$0].frame?.height }.max() ?? 0
        let screen = screenWidth * screenHeight
        guard screen > 0 else { return }
        let share = context[Parameter.scrimShare]
        // Each element's stop position, and the subtree ends (children follow their parents).
        var stopAt = [Int32](repeating: -1, count: elements.count)
        // Read in place: a copy of each stop retains and releases its strings.
        let stops = transcript.stops
        for position in stops.indices { stopAt[stops[position].element] = Int32(position) }
        let ends = Targets.subtreeEnds(in: snapshot)
        var reported = Set<Int>()
        for scrim in elements.indices {
            if context.outOfBudget() { return }
            let element = elements[scrim]
            guard element.firstChild < 0, element.isVisible, !element.isHidden, !element.isSystemUI, !element.covered,
                let frame = element.frame, frame.width * frame.height >= share * screen,
                snapshot.texts.isBlank(element.label), snapshot.texts.isBlank(element.text),
                element.isInteractive || isNamedScrim(snapshot.texts.string(element.id))
            else { continue }
            let parent = Int(element.parent)
            guard parent >= 0 else { continue }
            // The panel: what is painted above the scrim and holds stops, all of them within
            // `panel-share` of the screen (a dialog, a sheet). A page of stops above it (an
            // app drawer over the wallpaper's scrim, a full-screen cart) is not a dialog.
            let above = snapshot.children(of: parent).filter { sibling in
                sibling != scrim && isPainted(sibling, above: scrim, in: snapshot) && (sibling..<ends[sibling]).contains { stopAt[$0] >= 0 }
            }
            guard let panel = above.last, !reported.contains(panel),
                above.allSatisfy({ stopExtent(in: $0..<ends[$0], stopAt: stopAt, snapshot: snapshot) <= context[Parameter.panelShare] * screen })
            else { continue }
            // The content: what is painted below the scrim, here and beside each ancestor.
            var behind: [Int] = []
            var node = scrim
            while node >= 0 {
                let up = Int(elements[node].parent)
                guard up >= 0 else { break }
                for sibling in snapshot.children(of: up) where sibling != node && isPainted(node, above: sibling, in: snapshot) {
                    for index in sibling..<ends[sibling] where stopAt[index] >= 0 {
                        if let stopFrame = elements[index].frame, stopFrame.intersects(frame) { behind.append(index) }
                    }
                }
                node = up
            }
            guard let first = behind.min(by: { stopAt[$0] < stopAt[$1] }) else { continue }
            reported.insert(panel)
            context.report(
                .reachable, element: panel,
                evidence: [
                    (.count, .int(behind.count)), (.speech, .string(transcript.stops[Int(stopAt[first])].speech)),
                    (.other, .string(snapshot.node(scrim).path)),
                ])
        }
    }

    /// The area of the smallest rectangle holding every stop in `range`.
    static func stopExtent(in range: Range<Int>, stopAt: [Int32], snapshot: Snapshot) -> Double {
        var union: Rect?
        for index in range where stopAt[index] >= 0 {
            guard let frame = snapshot.elements[index].frame else { continue }
            union = union.map { $0.union(frame) } ?? frame
        }
        return union.map { $0.width * $0.height } ?? 0
    }

    static func isNamedScrim(_ id: String?) -> Bool {
        guard let id = id?.lowercased(), !id.isEmpty else { return false }
        let name = id.split(separator: "/").last.map(String.init) ?? id
        return scrimWords.contains { name.contains($0) }
    }

    /// Siblings `upper` and `lower`: whether `upper` is painted above (``DrawingOrder``: a
    /// higher stated drawing order, else later in document order).
    static func isPainted(_ upper: Int, above lower: Int, in snapshot: Snapshot) -> Bool {
        upper < lower ? DrawingOrder.isDrawnAbove(upper, lower, in: snapshot) : !DrawingOrder.isDrawnAbove(lower, upper, in: snapshot)
    }
}
