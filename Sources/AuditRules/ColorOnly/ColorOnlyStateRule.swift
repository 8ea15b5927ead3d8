/// `color-only.state` — WCAG 1.4.1: the selected tab, segment or page indicator shown only
/// by a change of colour.
public enum ColorOnlyStateRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "color-only.state",
        title: "Selection shown by colour only",
        wcag: ["1.4.1"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            When one of a group of siblings is selected (trait `selected`), something other than colour \
            should change too: a filled symbol, a weight, an underline or indicator, a size. Compared with \
            its unselected siblings of the same role, ignoring their text. A state the snapshot does not \
            mark at all is found too (`unmarked-state`): of three or more sibling controls of one role \
            and size in a row (a segmented control, a tab strip), none selected, exactly one shows \
            another colour than the rest, which agree, and nothing else differs — the state is seen by \
            colour alone and heard not at all (no selected state for the screen reader). Fix: use a filled \
            icon or bold label for the selected item, or add an indicator; and expose the selection \
            (`accessibilityTraits = .selected`, `setSelected(true)`).
            """,
        examples: [
            // A selected tab a uiautomator dump cannot show the colours of, alike its sibling in
            // everything else: unjudged, not passed in silence.
            RuleExample(
                "", incomplete: ["a"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,2200][1080,2400]"><node resource-id="a" class="android.widget.TextView" text="Inbox" selected="true" clickable="true" enabled="true" package="com.example" bounds="[0,2200][540,2400]"/><node resource-id="b" class="android.widget.TextView" text="Sent" clickable="true" enabled="true" package="com.example" bounds="[540,2200][1080,2400]"/></node></node></hierarchy>"##
            ),
            RuleExample(
                ##"<element id="a" role="tab" label="Inbox" traits="selected" frame="0,0,130,50" foreground="#007AFF"/><element id="b" role="tab" label="Sent" frame="130,0,130,50" foreground="#8E8E93"/>"##,
                triggers: ["a"]),
            RuleExample(
                ##"<element id="a" role="tab" label="Inbox" traits="selected" image="tray.fill" frame="0,0,130,50" foreground="#007AFF"/><element id="b" role="tab" label="Sent" image="paperplane" frame="130,0,130,50" foreground="#8E8E93"/>"##
            ),
            RuleExample(
                ##"<element id="a" role="button" label="Page 1" traits="selected" frame="0,0,10,10" background="#FFFFFF"/><element id="b" role="button" label="Page 2" frame="20,0,10,10" background="#3A4F70"/>"##,
                triggers: ["a"]),
            RuleExample(
                ##"<element id="a" role="button" label="Page 1" traits="selected" frame="0,0,20,10" background="#FFFFFF"/><element id="b" role="button" label="Page 2" frame="30,0,10,10" background="#3A4F70"/>"##
            ),
            RuleExample(
                ##"<element id="a" role="tab" label="Inbox" traits="selected" frame="0,0,130,50" foreground="#007AFF" font-weight="bold"/><element id="b" role="tab" label="Sent" frame="130,0,130,50" foreground="#8E8E93"/>"##
            ),
            // A segmented control whose current segment is only another colour, marked nowhere.
            RuleExample(
                ##"<element id="seg" role="container" frame="0,100,390,40"><element id="d" role="button" label="Day" frame="0,100,130,40" foreground="#FFFFFF" background="#007AFF"/><element id="w" role="button" label="Week" frame="130,100,130,40" foreground="#007AFF" background="#FFFFFF"/><element id="m" role="button" label="Month" frame="260,100,130,40" foreground="#007AFF" background="#FFFFFF"/></element>"##,
                triggers: ["d"]),
            // The same, marked: the first check's (and a bold label passes it).
            RuleExample(
                ##"<element id="seg" role="container" frame="0,100,390,40"><element id="d" role="button" label="Day" traits="selected" font-weight="bold" frame="0,100,130,40" foreground="#FFFFFF" background="#007AFF"/><element id="w" role="button" label="Week" frame="130,100,130,40" foreground="#007AFF" background="#FFFFFF"/><element id="m" role="button" label="Month" frame="260,100,130,40" foreground="#007AFF" background="#FFFFFF"/></element>"##
            ),
            // Three buttons of three colours: a palette, not a state.
            RuleExample(
                ##"<element id="seg" role="container" frame="0,100,390,40"><element id="r" role="button" label="Red" frame="0,100,130,40" foreground="#FF3B30"/><element id="g" role="button" label="Green" frame="130,100,130,40" foreground="#34C759"/><element id="b" role="button" label="Blue" frame="260,100,130,40" foreground="#007AFF"/></element>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.deltaE, .deltaE(under: .deuteranopia), .deltaE(under: .protanopia), .deltaE(under: .tritanopia), .source]

        case colorOnlyState = "color-only-state"
        case unmarkedState = "unmarked-state"

        public var message: String {
            switch self {
            case .colorOnlyState: "Selected ${role} differs from unselected ${other} only by colour (${colors})"
            case .unmarkedState: "${role} differs from its ${count} siblings only by colour (${colors}) and is not marked selected: its state is shown by colour alone"
            }
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        reportMarkedStates(&context)
        reportUnmarkedStates(&context)
    }

    /// Groups of three or more sibling controls of one role and one size in a row, none
    /// selected, exactly one another colour than the rest.
    static func reportUnmarkedStates(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            if context.outOfBudget() { return }
            var members: [Int] = []
            for child in snapshot.childIndices(of: parent) {
                let element = elements[child]
                guard element.isInteractive, element.isVisible, !element.covered, element.frame != nil else { continue }
                members.append(child)
                if members.count > 12 { break }
            }
            guard members.count >= 3, members.count <= 12,
                members.allSatisfy({ !elements[$0].traits.contains(.selected) && elements[$0].checked != true }),
                let first = elements[members[0]].frame
            else { continue }
            let role = elements[members[0]].role
            // One role, one size (within a tenth), one row.
            guard
                members.allSatisfy({ index in
                    guard let frame = elements[index].frame else { return false }
                    return elements[index].role == role && abs(frame.height - first.height) <= 0.1 * first.height
                        && abs(frame.width - first.width) <= 0.1 * first.width && abs(frame.midY - first.midY) <= 0.25 * first.height
                })
            else { continue }
            var source = "declared"
            var colors = members.map { ColorDifference.color(of: elements[$0]) }
            if colors.contains(where: { $0 == nil }), snapshot.capabilities.contains(.colorsFromPixels) {
                source = "screenshot"
                let inks = members.map { PixelInk.color(of: $0, in: snapshot, maximumSide: 240) }
                guard inks.allSatisfy({ $0 != nil }) else { continue }
                let shares = inks.compactMap { $0?.share }
                guard shares.allSatisfy({ PixelInk.sameShape($0, shares[0]) }) else { continue }
                colors = inks.map { $0?.color }
            }
            let known = colors.compactMap { $0 }
            guard known.count == members.count else { continue }
            // Exactly one stands apart; the others agree with one another.
            let apart = known.indices.filter { candidate in
                known.indices.allSatisfy { $0 == candidate || differs(known[candidate], known[$0], source: source) }
            }
            guard apart.count == 1, let odd = apart.first else { continue }
            let rest = known.indices.filter { $0 != odd }
            guard rest.allSatisfy({ !differs(known[$0], known[rest[0]], source: source) }) else { continue }
            let oddLook = VisualSignature(members[odd], in: snapshot, includeText: false)
            guard rest.allSatisfy({ VisualSignature(members[$0], in: snapshot, includeText: false) == oddLook }) else { continue }
            context.report(
                ResultID.unmarkedState, element: members[odd],
                evidence: [
                    (.role, .string(role.name)), (.count, .int(rest.count)),
                ] + ColorDifference.evidence(known[rest[0]], known[odd]) + [(.source, .string(source))])
        }
    }

    static func differs(_ first: RGBA, _ second: RGBA, source: String) -> Bool {
        source == "screenshot" ? PixelInk.differ(first, second) : first != second
    }

    static func reportMarkedStates(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.traits.contains(.selected), element.isVisible, element.parent >= 0 else { continue }
            let siblings = snapshot.children(of: Int(element.parent)).filter {
                $0 != index && snapshot.elements[$0].role == element.role && !snapshot.elements[$0].traits.contains(.selected)
            }
            guard let other = siblings.first else { continue }
            // Declared colours, else (with a screenshot) the colours the two show.
            var source = "declared"
            var colors = ColorDifference.color(of: element).flatMap { selected in
                ColorDifference.color(of: snapshot.elements[other]).map { (selected, $0) }
            }
            if colors == nil, let selected = PixelInk.color(of: index, in: snapshot, maximumSide: 240),
                let unselected = PixelInk.color(of: other, in: snapshot, maximumSide: 240),
                PixelInk.sameShape(selected.share, unselected.share)
            {
                source = "screenshot"
                colors = PixelInk.differ(selected.color, unselected.color) ? (selected.color, unselected.color) : (selected.color, selected.color)
            }
            // Told apart by something besides colour (a weight, an underline, a mark): not
            // colour-only, whatever the colours.
            let selectedLook = VisualSignature(index, in: snapshot, includeText: false)
            let otherLook = VisualSignature(other, in: snapshot, includeText: false)
            guard selectedLook == otherLook else { continue }
            guard let (selectedColor, otherColor) = colors else {
                // Nothing else tells the selected item apart: only its colour could, and the
                // capture does not show it — unjudged, not passed in silence.
                context.cannotJudge(
                    snapshot.capabilities.contains(.declaredColors)
                        ? "no colours for the selected item"
                        : "the selected item differs from \(snapshot.node(other).id ?? "its siblings") in nothing this capture (\(snapshot.dialect.rawValue)) shows but, perhaps, colour: send a screenshot to judge it",
                    element: index)
                continue
            }
            guard selectedColor != otherColor else { continue }
            context.report(
                ResultID.colorOnlyState, element: index,
                evidence: [
                    (.role, .string(element.role.name)), (.other, .string(snapshot.node(other).id ?? snapshot.path(of: other))),
                ] + ColorDifference.evidence(otherColor, selectedColor) + [(.source, .string(source))])
        }
    }
}
