/// `target-duplicate` — two targets with the same bounds (Google ATF's
/// DuplicateClickableBoundsCheck), nested or not: a tap there reaches only one of them,
/// and a screen reader announces two controls in one place.
public enum TargetDuplicateRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "target-duplicate",
        title: "Targets with the same bounds",
        wcag: ["2.5.8"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Two interactive elements should not occupy exactly the same area: only one of them gets the \
            tap, and TalkBack and VoiceOver stop on both. This includes a clickable parent with a \
            clickable child of the same bounds — usually a listener set on both the row and its only \
            view. Reported on each repeat after the first, naming the first. Not counted: a control's \
            inner part (a toggle's knob), and what is not the app's. Fix: keep the action on one of \
            them and make the other not clickable.
            """,
        examples: [
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="0,100,100,44"/>"##, triggers: ["b"]),
            RuleExample(
                ##"<element id="row" role="cell" interactive="true" label="Order 42" frame="0,100,390,60"><element id="open" role="button" label="Open" frame="0,100,390,60"/></element>"##,
                triggers: ["open"]),
            RuleExample(
                "", triggers: ["title"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="card" class="android.widget.LinearLayout" package="com.example" clickable="true" enabled="true" bounds="[0,300][1080,468]"><node resource-id="title" class="android.widget.TextView" text="Order 42" package="com.example" clickable="true" enabled="true" bounds="[0,300][1080,468]"/></node></node></hierarchy>"##
            ),
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="0,150,100,44"/>"##),
            RuleExample(
                ##"<element id="row" role="cell" interactive="true" label="Order 42" frame="0,100,390,60"><element id="open" role="button" label="Open" frame="300,110,80,40"/></element>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.nested]

        case sameBounds = "same-bounds"

        public var message: String { "Target has the same bounds as ${other} (${frame})" }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        // Each frame's first target, and — once a second one shares it — that target's name
        // and the frame as evidence, written once per group: a frame repeated 1,000 times is
        // formatted once, not 1,000 times.
        let targets = Targets.all(in: snapshot)
        // Frame → its group: the first target, and its evidence once a second one shares it.
        // Sized once: a table grown as it fills rehashes every frame it holds each time.
        var groupOf = RectTable<Int32>(capacity: targets.count)
        var groups: [(index: Int, shared: (name: JSON, frame: JSON)?)] = []
        var ends: [Int] = []
        for target in targets {
            if context.outOfBudget() { return }
            guard let group = groupOf[target.frame].map(Int.init) else {
                groupOf[target.frame] = Int32(truncatingIfNeeded: groups.count)
                groups.append((target.index, nil))
                continue
            }
            let earlier = groups[group].index
            // Nesting by subtree ends (O(1)), not by walking up a chain that may be 100,000 deep.
            if ends.isEmpty { ends = Targets.subtreeEnds(in: snapshot) }
            let shared: (name: JSON, frame: JSON)
            if let known = groups[group].shared {
                shared = known
            } else {
                shared = (.string(snapshot.node(earlier).id ?? snapshot.path(of: earlier)), .string(target.frame.description))
                groups[group].shared = shared
            }
            context.report(
                ResultID.sameBounds, element: target.index,
                evidence: [(.other, shared.name), (.frame, shared.frame), (.nested, .bool(target.index < ends[earlier]))])
        }
    }
}
