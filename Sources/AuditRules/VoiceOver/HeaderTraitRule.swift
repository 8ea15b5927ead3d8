/// `voiceover.header-trait` — text that looks like a heading but is not announced as one
/// (the Notecards "Collection" header VoiceOver did not call a heading).
public enum HeaderTraitRule: Rule {
    public static let description = RuleDescription(
        id: "voiceover.header-trait",
        title: "Heading without the header trait",
        wcag: ["1.3.1", "2.4.6"],
        severity: .warning,
        enabledIn: [.ios],
        help: """
            VoiceOver users move between headings with the rotor; text that looks like a heading must carry \
            the header trait (accessibilityTraits = .header; heading="true" on Android). Reported for the \
            first text of a group that uses a heading text style (large-title, title1–3, headline), or is \
            clearly larger (by `size-ratio`) and bolder than the other text of the group.
            """,
        parameters: Parameter.self,
        results: ResultID.self,
        examples: [
            RuleExample(
                ##"<element id="g" role="container"><element id="h" role="text" text="Collection" text-style="title2"/><element id="b" role="text" text="12 cards" text-style="body"/></element>"##,
                triggers: ["h"]),
            RuleExample(
                ##"<element id="g" role="container"><element id="h" role="text" text="Collection" traits="header" text-style="title2"/><element id="b" role="text" text="12 cards" text-style="body"/></element>"##
            ),
            RuleExample(
                ##"<element id="g" role="container"><element id="h" role="text" text="Collection" font-size="22" font-weight="bold"/><element id="b" role="text" text="12 cards" font-size="15"/><element id="c" role="text" text="Edited today" font-size="13"/></element>"##,
                triggers: ["h"]),
            RuleExample(
                ##"<element id="g" role="container"><element id="h" role="text" text="Collection" font-size="16" font-weight="bold"/><element id="b" role="text" text="12 cards" font-size="15"/></element>"##
            ),
            RuleExample(
                ##"<element id="g" role="container"><element id="a" role="text" text="Intro" text-style="body"/><element id="h" role="text" text="Later" text-style="headline"/></element>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case style
        case looks

        public var message: String {
            switch self {
            case .style: "\"${text}\" uses the ${text-style} style but is not announced as a heading"
            case .looks: "\"${text}\" is larger (${font-size} pt vs ${sibling-size} pt) and bolder than its group's text but is not announced as a heading"
            }
        }
    }

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let sizeRatio = RuleParameter<Double>("size-ratio", default: 1.25, help: "how much larger than its siblings' text counts as a heading")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        let ratio = context[Parameter.sizeRatio]
        var texts: [Int] = []
        func check(_ siblings: some Sequence<Int>) {
            // The visible, accessible text elements among the siblings, in order.
            texts.removeAll(keepingCapacity: true)
            for sibling in siblings {
                let element = elements[sibling]
                if element.role == .text, element.isVisible, element.isAccessible, !snapshot.visibleTextRef(of: sibling).isAbsent {
                    texts.append(sibling)
                }
            }
            guard let first = texts.first else { return }
            let element = elements[first]
            guard !element.traits.contains(.header) else { return }
            let text = snapshot.text(snapshot.visibleTextRef(of: first)) ?? ""
            if let style = element.textStyle, style.isHeading {
                context.report(ResultID.style, element: first, evidence: [(.text, .string(text)), (.textStyle, .string(style.rawValue))])
                return
            }
            guard let size = element.fontSize, texts.count > 1 else { return }
            let weight = Int(element.fontWeight ?? 400)
            var largest = -Double.infinity
            for other in texts.dropFirst() {
                // Every sibling needs a known size, and the first must be heavier than all.
                guard let otherSize = elements[other].fontSize, weight > Int(elements[other].fontWeight ?? 400) else { return }
                largest = max(largest, otherSize)
            }
            guard size >= largest * ratio else { return }
            context.report(
                ResultID.looks, element: first,
                evidence: [
                    (.text, .string(text)), (.fontSize, .number(size)), (.siblingSize, .number(largest)), (.fontWeight, .int(weight)),
                ])
        }
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            if context.outOfBudget() { return }
            check(snapshot.childIndices(of: parent))
        }
        check(snapshot.roots)
    }
}
