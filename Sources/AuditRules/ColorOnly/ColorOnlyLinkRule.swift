/// `color-only.link` — WCAG 1.4.1 (failure F73): a link in a block of text that differs
/// from the text around it only by a colour less than 3:1 apart, with no underline.
public enum ColorOnlyLinkRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "color-only.link",
        title: "Link distinguished by colour only",
        wcag: ["1.4.1"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            A link inside a block of text must be told apart by more than colour: an underline, a weight \
            change, or a colour at least 3:1 from the surrounding text (WCAG technique G183). Checked for \
            links whose parent is a text element, or that sit between text siblings. Where the capture shows \
            no colours (XCUITest, uiautomator without a screenshot) such a link is incomplete, with the way to \
            judge it (send a screenshot), never passed in silence. Fix: underline links in body text.
            """,
        examples: [
            RuleExample(
                ##"<element id="p" role="text" text="Read the terms first." foreground="#3C3C43" font-size="15"><element id="l" role="link" text="terms" foreground="#007AFF" font-size="15"/></element>"##,
                triggers: ["l"]),
            RuleExample(
                ##"<element id="p" role="text" text="Read the terms first." foreground="#3C3C43" font-size="15"><element id="l" role="link" text="terms" foreground="#007AFF" underline="true" font-size="15"/></element>"##
            ),
            RuleExample(
                ##"<element id="p" role="text" text="Read the terms first." foreground="#000000" font-size="15"><element id="l" role="link" text="terms" foreground="#FF0000" font-weight="bold" font-size="15"/></element>"##
            ),
            RuleExample(
                ##"<element id="p" role="text" text="Read the terms first." foreground="#000000"><element id="l" role="link" text="terms" foreground="#FFD60A"/></element>"##),
            RuleExample(##"<element id="l" role="link" text="Privacy" foreground="#007AFF" frame="0,0,80,44"/>"##),
            // A link between texts of a capture without colours (XCUITest): said, not passed.
            RuleExample(
                "", incomplete: ["terms-link"],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeOther type="XCUIElementTypeOther" x="20" y="400" width="350" height="20"><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="I accept the" x="20" y="400" width="90" height="20" visible="true" accessible="true"/><XCUIElementTypeLink type="XCUIElementTypeLink" name="terms-link" label="terms" x="112" y="400" width="40" height="20" visible="true" accessible="true"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="of use." x="154" y="400" width="50" height="20" visible="true" accessible="true"/></XCUIElementTypeOther></XCUIElementTypeApplication></AppiumAUT>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.deltaE, .deltaE(under: .deuteranopia), .deltaE(under: .protanopia), .deltaE(under: .tritanopia), .source, .underline]

        case colorOnlyLink = "color-only-link"

        public var message: String {
            "Link differs from the surrounding text only by colour (${ratio}:1, below ${required}:1; ${link} vs ${text})"
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let ratio = RuleParameter<Double>("ratio", default: 3, help: "minimum ratio between link and text colours")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let required = context[Parameter.ratio]
        // Each element's previous sibling, once: asking a link's neighbours then costs O(1),
        // where listing its siblings made 100,000 sibling links quadratic.
        var previous = [Int32](repeating: -1, count: snapshot.elements.count)
        for index in snapshot.elements.indices {
            let next = snapshot.elements[index].nextSibling
            if next >= 0 { previous[Int(next)] = Int32(index) }
        }
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.role == .link || element.traits.contains(.link), element.isVisible, !element.isHidden else { continue }
            guard let surrounding = surroundingText(of: index, previous: previous, in: snapshot) else { continue }
            let text = snapshot.elements[surrounding]
            // Told apart by more than colour: nothing to read from colours.
            if element.underline == true { continue }
            let weight = element.fontWeight ?? 400, textWeight = text.fontWeight ?? 400
            if abs(Int(weight) - Int(textWeight)) >= 300 { continue }
            var source = "declared"
            var colors = element.foreground.flatMap { link in text.foreground.map { (link, $0) } }
            // From pixels: the link's ink against the ink of the text beside it. A link inside
            // its text's own frame is not separable there (the text's crop holds the link).
            if colors == nil, snapshot.capabilities.contains(.colorsFromPixels), Int(element.parent) != surrounding,
                let link = PixelInk.color(of: index, in: snapshot, maximumSide: 400),
                let beside = PixelInk.color(of: surrounding, in: snapshot, maximumSide: 400)
            {
                source = "screenshot"
                colors = (link.color, beside.color)
            }
            // A link in running text whose colours are not known is not passed in silence.
            guard let (linkColor, textColor) = colors else {
                if snapshot.capabilities.contains(.declaredColors) || snapshot.capabilities.contains(.colorsFromPixels) {
                    context.cannotJudge("no colours for the link or its text", element: index)
                } else {
                    context.cannotJudge(
                        "a link in running text, and this capture (\(snapshot.dialect.rawValue)) shows no colours: send a screenshot to judge whether only colour tells it apart",
                        element: index)
                }
                continue
            }
            let background = element.effectiveBackground ?? .white
            let ratio = ColorMath.contrastRatio(linkColor.composited(over: background), textColor.composited(over: background))
            guard ratio < required else { continue }
            context.report(
                ResultID.colorOnlyLink, element: index,
                evidence: [
                    (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
                    (.link, .string(linkColor.hex)), (.text, .string(textColor.hex)), (.underline, .bool(false)),
                ] + ColorDifference.evidence(textColor, linkColor).dropFirst() + [(.source, .string(source))])
        }
    }

    /// The text the link sits in: its parent text element, or a text sibling before and after
    /// it (`previous`: each element's previous sibling, or -1).
    static func surroundingText(of index: Int, previous: [Int32], in snapshot: Snapshot) -> Int? {
        let element = snapshot.elements[index]
        guard element.parent >= 0 else { return nil }
        let parent = Int(element.parent)
        if snapshot.elements[parent].role == .text { return parent }
        let before = Int(previous[index]), after = Int(element.nextSibling)
        guard before >= 0, after >= 0, snapshot.elements[before].role == .text, snapshot.elements[after].role == .text else { return nil }
        return before
    }
}
