/// `screen-reader.ungrouped-cell` — a cell or card whose parts are separate accessibility
/// elements: VoiceOver users swipe through forty elements for ten products.
public enum UngroupedCellRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.ungrouped-cell",
        aliases: ["voiceover.ungrouped-cell"],
        title: "Cell read as separate parts",
        wcag: ["1.3.1"],
        severity: .warning,
        enabledIn: [.ios],
        help: """
            A list cell or a card whose title, price, description and button are each their own \
            accessibility element makes screen-reader users swipe through every part of every item. \
            Reported for cells (and repeated sibling containers, the cards of a list) with at least \
            `minimum-parts` accessible parts and no label of their own. Fix: make the cell one element \
            (isAccessibilityElement = true) with a label ("Running shoes"), a value ("$89") and the button \
            trait, and expose secondary actions as custom actions.
            """,
        examples: [
            RuleExample(
                ##"<element id="c" role="cell" frame="0,0,390,80"><element id="t" role="text" text="Shoes"/><element id="p" role="text" text="$89"/><element id="b" role="button" label="Buy"/></element>"##,
                triggers: ["c"]),
            RuleExample(
                ##"<element id="c" role="cell" label="Shoes, $89" frame="0,0,390,80"><element id="t" role="text" text="Shoes"/><element id="p" role="text" text="$89"/><element id="b" role="button" label="Buy"/></element>"##
            ),
            RuleExample(##"<element id="c" role="cell" frame="0,0,390,80"><element id="t" role="text" text="Shoes"/><element id="p" role="text" text="$89"/></element>"##),
            RuleExample(
                ##"<element id="list" role="container"><element id="k1" role="container"><element role="text" text="A"/><element role="text" text="1"/><element role="button" label="Add"/></element><element id="k2" role="container"><element role="text" text="B"/><element role="text" text="2"/><element role="button" label="Add"/></element></element>"##,
                triggers: ["k1", "k2"]),
            RuleExample(
                ##"<element id="list" role="container"><element id="a" role="cell" label="A"/><element id="b" role="cell" label="B"/><element id="c" role="cell" label="C"/></element><element id="bar" role="container" traits="tab-bar"><element role="tab" label="1"/><element role="tab" label="2"/><element role="tab" label="3"/></element>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case ungrouped

        public var message: String {
            "${kind} is read as ${parts} separate elements (${names}); make it one element with a label, value and button trait"
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let minimumParts = RuleParameter<Double>("minimum-parts", default: 3, help: "accessible parts that make a cell ungrouped")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        let minimum = Int(context[Parameter.minimumParts])
        let cards = repeatedCards(in: snapshot)
        var parts: [Int] = []
        var names: [UInt8] = []
        for index in elements.indices {
            if context.outOfBudget() { return }
            let element = elements[index]
            guard element.firstChild >= 0, element.isVisible, !element.isHidden else { continue }
            let isCell = element.role == .cell
            guard isCell || cards[index] else { continue }
            if element.isAccessible, !snapshot.texts.isBlank(element.label) { continue }
            // The accessible parts, in reading order: descend through plain containers, stop
            // at an accessible part (it is read as one) or at a hidden or invisible subtree.
            parts.removeAll(keepingCapacity: true)
            var skipDeeperThan = Int32.max
            var next = index + 1
            while next < elements.count, elements[next].depth > element.depth {
                let part = elements[next]
                next += 1
                if part.depth > skipDeeperThan { continue }
                skipDeeperThan = .max
                if part.isHidden || !part.isVisible {
                    skipDeeperThan = part.depth
                } else if part.isAccessible {
                    parts.append(next - 1)
                    skipDeeperThan = part.depth
                }
            }
            guard parts.count >= minimum else { continue }
            names.removeAll(keepingCapacity: true)
            for (offset, part) in parts.prefix(4).enumerated() {
                if offset > 0 { names.write(", ") }
                if !snapshot.appendAccessibleName(of: part, to: &names) { names.write(utf8: elements[part].role.name) }
            }
            if parts.count > 4 { names.write(", …") }
            context.report(
                ResultID.ungrouped, element: index,
                evidence: [
                    (.kind, .string(isCell ? "Cell" : "Card")), (.parts, .int(parts.count)),
                    (.names, .string(String(decoding: names, as: UTF8.self))),
                ])
        }
    }

    /// Containers with a sibling container of the same shape — the same roles of children,
    /// in the same order, none of them cells or tabs, not a bar: the cards of a list. One
    /// pass over every parent's children; shapes compared by hash, then exactly.
    static func repeatedCards(in snapshot: Snapshot) -> [Bool] {
        let elements = snapshot.elements
        var cards = [Bool](repeating: false, count: elements.count)
        var candidates: [(shape: UInt64, index: Int)] = []
        func consider(_ siblings: some Sequence<Int>) {
            candidates.removeAll(keepingCapacity: true)
            for sibling in siblings {
                let element = elements[sibling]
                guard element.role == .container, !element.traits.contains(.tabBar), element.firstChild >= 0 else { continue }
                if let shape = shapeHash(of: sibling, in: snapshot) { candidates.append((shape, sibling)) }
            }
            guard candidates.count > 1 else { return }
            candidates.sort { ($0.shape, $0.index) < ($1.shape, $1.index) }
            var start = 0
            while start < candidates.count {
                var end = start + 1
                while end < candidates.count, candidates[end].shape == candidates[start].shape { end += 1 }
                for member in start..<end where !cards[candidates[member].index] {
                    // Same hash: confirm the shape against the other members.
                    for other in start..<end
                    where other != member
                        && sameShape(candidates[member].index, candidates[other].index, in: snapshot)
                    {
                        cards[candidates[member].index] = true
                        cards[candidates[other].index] = true
                        break
                    }
                }
                start = end
            }
        }
        consider(snapshot.roots)
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            consider(snapshot.childIndices(of: parent))
        }
        return cards
    }

    /// A hash of the roles of `index`'s children; `nil` when it cannot be a card (fewer
    /// than two children, or a cell or tab among them).
    static func shapeHash(of index: Int, in snapshot: Snapshot) -> UInt64? {
        var hash = FNV1a()
        var count = 0
        for child in snapshot.childIndices(of: index) {
            let role = snapshot.elements[child].role
            if role == .cell || role == .tab { return nil }
            hash.add(role.rawValue)
            count += 1
        }
        return count >= 2 ? hash.value : nil
    }

    static func sameShape(_ first: Int, _ second: Int, in snapshot: Snapshot) -> Bool {
        var left = snapshot.childIndices(of: first), right = snapshot.childIndices(of: second)
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case let (a?, b?) where snapshot.elements[a].role == snapshot.elements[b].role: continue
            default: return false
            }
        }
    }
}
