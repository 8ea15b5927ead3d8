/// `color-only.state` — WCAG 1.4.1: the selected tab, segment or page indicator shown only
/// by a change of colour.
public enum ColorOnlyStateRule: Rule {
    public static let description = RuleDescription(
        id: "color-only.state",
        title: "Selection shown by colour only",
        wcag: ["1.4.1"],
        severity: .warning,
        help: """
            When one of a group of siblings is selected (trait `selected`), something other than colour \
            should change too: a filled symbol, a weight, an underline or indicator, a size. Compared with \
            its unselected siblings of the same role, ignoring their text. Fix: use a filled icon or bold \
            label for the selected item, or add an indicator.
            """,
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="a" role="tab" label="Inbox" traits="selected" frame="0,0,130,50" foreground="#007AFF"/><element id="b" role="tab" label="Sent" frame="130,0,130,50" foreground="#8E8E93"/>"##, triggers: ["a"]),
            RuleExample(##"<element id="a" role="tab" label="Inbox" traits="selected" image="tray.fill" frame="0,0,130,50" foreground="#007AFF"/><element id="b" role="tab" label="Sent" image="paperplane" frame="130,0,130,50" foreground="#8E8E93"/>"##),
            RuleExample(##"<element id="a" role="button" label="Page 1" traits="selected" frame="0,0,10,10" background="#FFFFFF"/><element id="b" role="button" label="Page 2" frame="20,0,10,10" background="#3A4F70"/>"##, triggers: ["a"]),
            RuleExample(##"<element id="a" role="button" label="Page 1" traits="selected" frame="0,0,20,10" background="#FFFFFF"/><element id="b" role="button" label="Page 2" frame="30,0,10,10" background="#3A4F70"/>"##),
            RuleExample(##"<element id="a" role="tab" label="Inbox" traits="selected" frame="0,0,130,50" foreground="#007AFF" font-weight="bold"/><element id="b" role="tab" label="Sent" frame="130,0,130,50" foreground="#8E8E93"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case colorOnlyState = "color-only-state"

        public var message: String {
            "Selected ${role} differs from unselected ${other} only by colour (${colors})"
        }
    }

    public static func evaluate(_ context: inout RuleContext) {
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
               PixelInk.sameShape(selected.share, unselected.share) {
                source = "screenshot"
                colors = PixelInk.differ(selected.color, unselected.color) ? (selected.color, unselected.color) : (selected.color, selected.color)
            }
            guard let (selectedColor, otherColor) = colors else {
                if snapshot.capabilities.contains(.declaredColors) { context.cannotJudge("no colours for the selected item", element: index) }
                continue
            }
            guard selectedColor != otherColor else { continue }
            let selectedLook = VisualSignature(index, in: snapshot, includeText: false)
            let otherLook = VisualSignature(other, in: snapshot, includeText: false)
            guard selectedLook == otherLook else { continue }
            context.report(ResultID.colorOnlyState, element: index, evidence: [
                ("role", .string(element.role.name)), ("other", .string(snapshot.node(other).id ?? snapshot.path(of: other))),
            ] + ColorDifference.evidence(otherColor, selectedColor) + [("source", .string(source))])
        }
    }
}
