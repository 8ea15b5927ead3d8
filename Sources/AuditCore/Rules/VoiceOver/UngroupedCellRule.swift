/// `voiceover.ungrouped-cell` — a cell or card whose parts are separate accessibility
/// elements: VoiceOver users swipe through forty elements for ten products.
public enum UngroupedCellRule: Rule {
    public static let description = RuleDescription(
        id: "voiceover.ungrouped-cell",
        title: "Cell read as separate parts",
        wcag: ["1.3.1"],
        severity: .warning,
        help: """
            A list cell or a card whose title, price, description and button are each their own \
            accessibility element makes screen-reader users swipe through every part of every item. \
            Reported for cells (and repeated sibling containers, the cards of a list) with at least \
            `minimum-parts` accessible parts and no label of their own. Fix: make the cell one element \
            (isAccessibilityElement = true) with a label ("Running shoes"), a value ("$89") and the button \
            trait, and expose secondary actions as custom actions.
            """,
        parameters: [ParameterDescription("minimum-parts", .number, default: .number(3), help: "accessible parts that make a cell ungrouped")],
        messages: ["ungrouped": "${kind} is read as ${parts} separate elements (${names}); make it one element with a label, value and button trait"],
        examples: [
            RuleExample(##"<element id="c" role="cell" frame="0,0,390,80"><element id="t" role="text" text="Shoes"/><element id="p" role="text" text="$89"/><element id="b" role="button" label="Buy"/></element>"##, triggers: ["c"]),
            RuleExample(##"<element id="c" role="cell" label="Shoes, $89" frame="0,0,390,80"><element id="t" role="text" text="Shoes"/><element id="p" role="text" text="$89"/><element id="b" role="button" label="Buy"/></element>"##),
            RuleExample(##"<element id="c" role="cell" frame="0,0,390,80"><element id="t" role="text" text="Shoes"/><element id="p" role="text" text="$89"/></element>"##),
            RuleExample(##"<element id="list" role="container"><element id="k1" role="container"><element role="text" text="A"/><element role="text" text="1"/><element role="button" label="Add"/></element><element id="k2" role="container"><element role="text" text="B"/><element role="text" text="2"/><element role="button" label="Add"/></element></element>"##, triggers: ["k1", "k2"]),
            RuleExample(##"<element id="list" role="container"><element id="a" role="cell" label="A"/><element id="b" role="cell" label="B"/><element id="c" role="cell" label="C"/></element><element id="bar" role="container" traits="tab-bar"><element role="tab" label="1"/><element role="tab" label="2"/><element role="tab" label="3"/></element>"##),
        ])

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        let minimum = Int(context.number("minimum-parts"))
        let cards = repeatedCards(in: snapshot)
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden, element.firstChild >= 0 else { continue }
            let isCell = element.role == .cell
            guard isCell || cards.contains(index) else { continue }
            if element.isAccessible, !snapshot.texts.isBlank(element.label) { continue }
            var parts: [Int] = []
            var pending = snapshot.children(of: index)
            while !pending.isEmpty {
                let child = pending.removeFirst()
                let part = snapshot.elements[child]
                if part.isHidden || !part.isVisible { continue }
                if part.isAccessible { parts.append(child) } else { pending = snapshot.children(of: child) + pending }
            }
            guard parts.count >= minimum else { continue }
            let names = parts.prefix(4).map { snapshot.node($0).accessibleName ?? snapshot.elements[$0].role.name }
            context.report("ungrouped", element: index, evidence: [
                ("kind", .string(isCell ? "Cell" : "Card")), ("parts", .int(parts.count)),
                ("names", .string(names.joined(separator: ", ") + (parts.count > 4 ? ", …" : ""))),
            ])
        }
    }

    /// Containers with a sibling container of the same shape — the same roles of children,
    /// in the same order, none of them cells or tabs, not a bar: the cards of a list. One
    /// pass over every parent's children.
    static func repeatedCards(in snapshot: Snapshot) -> Set<Int> {
        var cards = Set<Int>()
        for parent in snapshot.elements.indices.map({ $0 }) + [-1] {
            let siblings = parent >= 0 ? snapshot.children(of: parent) : snapshot.roots
            guard siblings.count > 1 else { continue }
            var byShape: [[Role]: [Int]] = [:]
            for sibling in siblings {
                let element = snapshot.elements[sibling]
                guard element.role == .container, !element.traits.contains(.tabBar), element.firstChild >= 0 else { continue }
                let shape = snapshot.children(of: sibling).map { snapshot.elements[$0].role }
                guard shape.count >= 2, !shape.contains(.cell), !shape.contains(.tab) else { continue }
                byShape[shape, default: []].append(sibling)
            }
            for group in byShape.values where group.count > 1 { cards.formUnion(group) }
        }
        return cards
    }
}
