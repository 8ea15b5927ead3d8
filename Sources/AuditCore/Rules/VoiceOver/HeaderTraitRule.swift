/// `voiceover.header-trait` — text that looks like a heading but is not announced as one
/// (the Notecards "Collection" header VoiceOver did not call a heading).
public enum HeaderTraitRule: Rule {
    public static let description = RuleDescription(
        id: "voiceover.header-trait",
        title: "Heading without the header trait",
        wcag: ["1.3.1", "2.4.6"],
        severity: .warning,
        help: """
            VoiceOver users move between headings with the rotor; text that looks like a heading must carry \
            the header trait (accessibilityTraits = .header; heading="true" on Android). Reported for the \
            first text of a group that uses a heading text style (large-title, title1–3, headline), or is \
            clearly larger (by `size-ratio`) and bolder than the other text of the group.
            """,
        parameters: [ParameterDescription("size-ratio", .number, default: .number(1.25), help: "how much larger than its siblings' text counts as a heading")],
        messages: [
            "style": "\"${text}\" uses the ${text-style} style but is not announced as a heading",
            "looks": "\"${text}\" is larger (${font-size} pt vs ${sibling-size} pt) and bolder than its group's text but is not announced as a heading",
        ],
        examples: [
            RuleExample(##"<element id="g" role="container"><element id="h" role="text" text="Collection" text-style="title2"/><element id="b" role="text" text="12 cards" text-style="body"/></element>"##, triggers: ["h"]),
            RuleExample(##"<element id="g" role="container"><element id="h" role="text" text="Collection" traits="header" text-style="title2"/><element id="b" role="text" text="12 cards" text-style="body"/></element>"##),
            RuleExample(##"<element id="g" role="container"><element id="h" role="text" text="Collection" font-size="22" font-weight="bold"/><element id="b" role="text" text="12 cards" font-size="15"/><element id="c" role="text" text="Edited today" font-size="13"/></element>"##, triggers: ["h"]),
            RuleExample(##"<element id="g" role="container"><element id="h" role="text" text="Collection" font-size="16" font-weight="bold"/><element id="b" role="text" text="12 cards" font-size="15"/></element>"##),
            RuleExample(##"<element id="g" role="container"><element id="a" role="text" text="Intro" text-style="body"/><element id="h" role="text" text="Later" text-style="headline"/></element>"##),
        ])

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        let ratio = context.number("size-ratio")
        for parent in snapshot.elements.indices.map({ $0 }) + [-1] {
            let children = (parent >= 0 ? snapshot.children(of: parent) : snapshot.roots).filter {
                let element = snapshot.elements[$0]
                return element.role == .text && element.isVisible && element.isAccessible && snapshot.node($0).visibleText != nil
            }
            guard let first = children.first else { continue }
            let element = snapshot.elements[first]
            guard !element.traits.contains(.header) else { continue }
            let text = snapshot.node(first).visibleText ?? ""
            if let style = element.textStyle, style.isHeading {
                context.report("style", element: first, evidence: [("text", .string(text)), ("text-style", .string(style.rawValue))])
                continue
            }
            guard let size = element.fontSize, children.count > 1 else { continue }
            let others = children.dropFirst().map { snapshot.elements[$0] }
            let otherSizes = others.compactMap(\.fontSize)
            guard otherSizes.count == others.count, let largest = otherSizes.max() else { continue }
            let weight = Int(element.fontWeight ?? 400)
            let heavierThanAll = others.allSatisfy { weight > Int($0.fontWeight ?? 400) }
            guard size >= largest * ratio, heavierThanAll else { continue }
            context.report("looks", element: first, evidence: [
                ("text", .string(text)), ("font-size", .number(size)), ("sibling-size", .number(largest)), ("font-weight", .int(weight)),
            ])
        }
    }
}
