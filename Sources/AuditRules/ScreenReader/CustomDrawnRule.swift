/// `screen-reader.custom-drawn` — content a view draws itself with no accessibility element
/// inside or over it: shapes VoiceOver cannot see.
public enum CustomDrawnRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.custom-drawn",
        aliases: ["voiceover.custom-drawn"],
        title: "Custom-drawn content is invisible to screen readers",
        wcag: ["1.1.1", "4.1.2"],
        severity: .error,
        enabledIn: [.ios],
        help: """
            A view that draws its content itself (a chart, a game board, a signature pad: \
            draws-content="true") exposes nothing to assistive technology unless it is an accessibility \
            element itself or provides elements for its parts (accessibilityElements, \
            UIAccessibilityElement, AccessibilityNodeProvider). Reported when neither the view nor anything \
            inside or over it is an accessible element. Fix: describe the drawing or expose its parts.
            """,
        examples: [
            RuleExample(##"<element id="chart" role="other" draws-content="true" frame="0,100,390,200"/>"##, triggers: ["chart"]),
            RuleExample(##"<element id="chart" role="image" label="Sales up 12% this week" draws-content="true" frame="0,100,390,200"/>"##),
            RuleExample(
                ##"<element id="chart" role="other" draws-content="true" frame="0,100,390,200"><element id="bar1" role="other" accessible="true" label="Monday, 40" frame="10,150,20,100"/></element>"##
            ),
            RuleExample(
                ##"<element id="chart" role="other" draws-content="true" frame="0,100,390,200"/><element id="over" role="text" text="Sales up 12%" frame="20,120,200,20"/>"##),
            RuleExample(##"<element id="deco" role="other" draws-content="true" hidden="true" frame="0,100,390,200"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.drawsContent]

        case invisible

        public var message: String {
            "${role} draws its own content but exposes no accessibility element for it"
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        for index in snapshot.elements.indices where snapshot.elements[index].drawsContent == true {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden else { continue }
            if element.isAccessible, LabelText.hasName(of: index, in: snapshot) { continue }
            // Anything accessible inside it?
            var inside = false
            var pending = snapshot.children(of: index)
            while !pending.isEmpty, !inside {
                let child = pending.removeFirst()
                if snapshot.elements[child].isAccessible, !snapshot.elements[child].isHidden { inside = true }
                pending += snapshot.children(of: child)
            }
            if inside { continue }
            // Anything accessible drawn over it (later in document order, overlapping)?
            if let frame = element.frame, !frame.isEmpty {
                let over = snapshot.elements.indices.contains { other in
                    other > index && snapshot.elements[other].isAccessible && !snapshot.elements[other].isHidden
                        && snapshot.elements[other].frame.map { $0.intersects(frame) } == true
                }
                if over { continue }
            }
            context.report(ResultID.invisible, element: index, evidence: [(.role, .string(element.role.name)), (.drawsContent, .bool(true))])
        }
    }
}
