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
        ])

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        guard snapshot.dialect == .native else {
            context.cannotJudge("no colours in this dialect (\(snapshot.dialect.rawValue))")
            return
        }
        // Group key: the container the comparison happens in, the position inside a repeated
        // sibling (or -1 for direct siblings), and what the element looks like apart from colour.
        struct Key: Hashable {
            var scope: Int
            var slot: Int
            var signature: VisualSignature
        }
        var groups: [Key: [Int]] = [:]
        var order: [Key] = []
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden, element.role != .window, ColorDifference.color(of: element) != nil else { continue }
            // Elements with their own children are layouts, not marks.
            guard element.firstChild < 0 else { continue }
            let signature = VisualSignature(index, in: snapshot, includeText: true)
            let parent = Int(element.parent)
            var keys = [Key(scope: parent, slot: -1, signature: signature)]
            if parent >= 0 {
                let slot = snapshot.children(of: parent).firstIndex(of: index) ?? 0
                let grandparent = Int(snapshot.elements[parent].parent)
                keys.append(Key(scope: grandparent, slot: slot, signature: signature))
            }
            for key in keys {
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(index)
            }
        }
        var reported = Set<Int>()
        for key in order {
            guard let members = groups[key], members.count > 1 else { continue }
            // Repeated-sibling slots only count when the parents are alike (cells of one list).
            if key.slot >= 0 {
                let parents = members.map { Int(snapshot.elements[$0].parent) }
                guard Set(parents).count == members.count,
                      Set(parents.map { snapshot.elements[$0].role }).count == 1 else { continue }
            }
            guard let first = members.first, let reference = ColorDifference.color(of: snapshot.elements[first]) else { continue }
            for member in members.dropFirst() where !reported.contains(member) {
                guard let color = ColorDifference.color(of: snapshot.elements[member]), color != reference else { continue }
                reported.insert(member)
                context.report("color-only", element: member, evidence: [
                    ("other", .string(snapshot.node(first).id ?? snapshot.path(of: first))),
                ] + ColorDifference.evidence(reference, color))
            }
        }
    }
}
