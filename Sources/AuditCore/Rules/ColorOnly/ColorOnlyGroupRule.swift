/// `color-only.group` — WCAG 1.4.1: look-alike elements told apart only by colour
/// (Mail's unread and flagged dots before shapes were added).
public enum ColorOnlyGroupRule: Rule {
    public static let description = RuleDescription(
        id: "color-only.group",
        title: "Difference shown by colour only",
        wcag: ["1.4.1"],
        severity: .warning,
        help: """
            Sibling elements — or elements at the same place inside repeated siblings such as list cells — \
            with the same role, size, image, text, weight and decoration but different colours carry their \
            difference by colour alone: people who cannot tell the colours apart miss it. Evidence gives the \
            CIEDE2000 difference for normal vision and simulated protanopia, deuteranopia and tritanopia \
            (Machado 2009). Fix: add a shape, icon, text or pattern that differs too.
            """,
        messages: ["color-only": "Differs from ${other} only by colour (${colors})"],
        examples: [
            RuleExample(##"""
                <element id="c1" role="cell" frame="0,0,390,60"><element id="d1" role="image" label="Unread" frame="6,20,10,10" foreground="#007AFF"/></element>
                <element id="c2" role="cell" frame="0,60,390,60"><element id="d2" role="image" label="Flagged" frame="6,80,10,10" foreground="#FF9500"/></element>
                """##, triggers: ["d2"]),
            RuleExample(##"""
                <element id="c1" role="cell" frame="0,0,390,60"><element id="d1" role="image" image="dot" label="Unread" frame="6,20,10,10" foreground="#007AFF"/></element>
                <element id="c2" role="cell" frame="0,60,390,60"><element id="d2" role="image" image="flag" label="Flagged" frame="6,80,10,10" foreground="#FF9500"/></element>
                """##),
            RuleExample(##"<element id="a" role="image" label="Online" frame="0,0,8,8" background="#34C759"/><element id="b" role="image" label="Busy" frame="20,0,8,8" background="#FF3B30"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="image" label="Online" frame="0,0,8,8" background="#34C759"/><element id="b" role="image" label="Busy" frame="20,0,12,12" background="#FF3B30"/>"##),
            RuleExample(##"<element id="a" role="text" text="Paid" foreground="#34C759"/><element id="b" role="text" text="Due" foreground="#FF3B30"/>"##),
            RuleExample(##"<element id="a" role="image" label="Online" frame="0,0,8,8" background="#34C759"/><element id="b" role="image" label="Online" frame="20,0,8,8" background="#34C759"/>"##),
            RuleExample(##"<element id="a" role="tab" label="Inbox" traits="selected" frame="0,0,130,50" foreground="#007AFF"/><element id="b" role="tab" label="Sent" frame="130,0,130,50" foreground="#8E8E93"/>"##),
        ])

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        guard snapshot.dialect == .native else {
            context.cannotJudge("no colours in this dialect (\(snapshot.dialect.rawValue))")
            return
        }
        var reported = Set<Int>()
        var groups: [VisualSignature: [Int]] = [:]
        var order: [VisualSignature] = []

        /// Compares the members of each look-alike group within one scope.
        func judge(_ candidates: [Int]) {
            groups.removeAll(keepingCapacity: true)
            order.removeAll(keepingCapacity: true)
            for index in candidates where isMark(index) {
                let signature = VisualSignature(index, in: snapshot, includeText: true)
                if groups[signature] == nil { order.append(signature) }
                groups[signature, default: []].append(index)
            }
            for signature in order {
                guard let members = groups[signature], members.count > 1, let first = members.first,
                      let reference = ColorDifference.color(of: snapshot.elements[first]) else { continue }
                let referenceSelected = snapshot.elements[first].traits.contains(.selected)
                for member in members.dropFirst() where !reported.contains(member) {
                    // A selected item against unselected ones is color-only.state's case.
                    guard snapshot.elements[member].traits.contains(.selected) == referenceSelected else { continue }
                    guard let color = ColorDifference.color(of: snapshot.elements[member]), color != reference else { continue }
                    reported.insert(member)
                    context.report("color-only", element: member, evidence: [
                        ("other", .string(snapshot.node(first).id ?? snapshot.path(of: first))),
                    ] + ColorDifference.evidence(reference, color))
                }
            }
        }

        /// A leaf that draws something in a colour: the kind of mark colour can distinguish.
        func isMark(_ index: Int) -> Bool {
            let element = snapshot.elements[index]
            return element.firstChild < 0 && element.isVisible && !element.isHidden && element.role != .window
                && ColorDifference.color(of: element) != nil
        }

        for scope in snapshot.elements.indices.map({ $0 }) + [-1] {
            let children = scope >= 0 ? snapshot.children(of: scope) : snapshot.roots
            guard children.count > 1 else { continue }
            // Direct siblings.
            judge(children)
            // The same position inside repeated siblings of one role (the cells of a list).
            var byRole: [Role: [Int]] = [:]
            for child in children where snapshot.elements[child].firstChild >= 0 {
                byRole[snapshot.elements[child].role, default: []].append(child)
            }
            for role in Role.allCases {
                guard let repeated = byRole[role], repeated.count > 1 else { continue }
                let slots = repeated.map { snapshot.children(of: $0) }
                let width = slots.map(\.count).max() ?? 0
                for slot in 0..<width {
                    judge(slots.compactMap { $0.count > slot ? $0[slot] : nil })
                }
            }
        }
    }
}
