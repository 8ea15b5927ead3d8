/// `screen-reader.heading` — text that looks like a heading but is not announced as one
/// (the Notecards "Collection" header VoiceOver did not call a heading).
public enum HeadingRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.heading",
        aliases: ["voiceover.header-trait"],
        title: "Heading not announced as a heading",
        wcag: ["1.3.1", "2.4.6"],
        severity: .warning,
        enabledIn: [.ios],
        help: """
            VoiceOver users move between headings with the rotor; text that looks like a heading must carry \
            the header trait (accessibilityTraits = .header; heading="true" on Android). Reported for the \
            first text of a group that uses a heading text style (large-title, title1–3, headline), or is \
            clearly larger (by `size-ratio`) and bolder than the other text of the group. Where fonts are \
            not declared but text frames hug their text (Appium's XCUITest sources) and the capture says \
            which elements are headings (`traits`), a short first text (a title's words, not an amount) \
            whose frame is taller than every other text's of the group by `frame-ratio` is drawn larger: \
            reported as `drawn-larger`.
            """,
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
            // An amount or a total drawn large is not a title.
            RuleExample(
                ##"<element id="g" role="container"><element id="h" role="text" text="Total $1,250.00" font-size="22" font-weight="bold"/><element id="b" role="text" text="3 items" font-size="15"/></element>"##
            ),
            RuleExample(
                ##"<element id="g" role="container"><element id="h" role="text" text="Balance 12 500 ₽" font-size="22" font-weight="bold"/><element id="b" role="text" text="Main account" font-size="15"/></element>"##
            ),
            // An Appium source (no fonts; traits said): a section title drawn a line 34 pt
            // tall over 20-pt rows is drawn larger; marked Header it is not reported.
            RuleExample(
                "", triggers: ["account-title:drawn-larger"],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" traits=""><XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="100" width="390" height="200" traits=""><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="account-title" label="Account" x="16" y="100" width="140" height="34" visible="true" accessible="true" traits="StaticText"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Email" label="Email" x="16" y="150" width="60" height="20" visible="true" accessible="true" traits="StaticText"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Password" label="Password" x="16" y="190" width="80" height="20" visible="true" accessible="true" traits="StaticText"/></XCUIElementTypeOther></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            RuleExample(
                "",
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" traits=""><XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="100" width="390" height="200" traits=""><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Account" label="Account" x="16" y="100" width="140" height="34" visible="true" accessible="true" traits="Header, StaticText"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Email" label="Email" x="16" y="150" width="60" height="20" visible="true" accessible="true" traits="StaticText"/></XCUIElementTypeOther></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // An amount drawn large is not a title.
            RuleExample(
                "",
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" traits=""><XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="100" width="390" height="200" traits=""><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="$1,204.50" label="$1,204.50" x="16" y="100" width="200" height="41" visible="true" accessible="true" traits="StaticText"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Balance" label="Balance" x="16" y="150" width="60" height="20" visible="true" accessible="true" traits="StaticText"/></XCUIElementTypeOther></XCUIElementTypeApplication></AppiumAUT>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.fontWeight]

        case style
        case looks
        case drawnLarger = "drawn-larger"

        public var message: String {
            switch self {
            case .style: "\"${text}\" uses the ${text-style} style but is not announced as a heading"
            case .looks: "\"${text}\" is larger (${font-size} ${unit} vs ${sibling-size} ${unit}) and bolder than its group's text but is not announced as a heading"
            case .drawnLarger:
                "\"${text}\" is drawn larger than its group's text (a line ${line-height} ${unit} tall vs ${sibling-line-height} ${unit}) but is not announced as a heading"
            }
        }
    }

    /// A title's words: short (at most six words, 40 characters), one of them a word of three
    /// letters or more, not a number or an amount ("$12.00", "0.0 mph") drawn large.
    static func looksLikeTitle(_ text: String) -> Bool {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty, words.count <= 6, text.count <= 40 else { return false }
        let letters = text.filter(\.isLetter).count, digits = text.filter(\.isNumber).count
        guard letters > digits else { return false }
        // An amount or a total ("Total $1,234.56", "Balance 12 500 ₽", "Итого: 1 250"): a
        // currency sign, or a number of three digits or more, is no title's.
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .currencySymbol }) { return false }
        var run = 0
        for character in text {
            if character.isNumber {
                run += 1
                if run >= 3 { return false }
            } else if character != ",", character != ".", character != " ", character != "\u{00A0}", character != "\u{202F}" {
                run = 0
            }
        }
        return words.contains { $0.filter(\.isLetter).count >= 3 }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let sizeRatio = RuleParameter<Double>("size-ratio", default: 1.25, help: "how much larger than its siblings' text counts as a heading")
        public let frameRatio = RuleParameter<Double>(
            "frame-ratio", default: 1.4,
            help: "without declared fonts, where text frames hug their text: how much taller than its siblings' frames a title's one line is")
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
            guard texts.count > 1 else { return }
            guard let size = element.fontSize else {
                drawnLarger(first, text: text, among: texts)
                return
            }
            let weight = Int(element.fontWeight ?? 400)
            var largest = -Double.infinity
            for other in texts.dropFirst() {
                // Every sibling needs a known size, and the first must be heavier than all.
                guard let otherSize = elements[other].fontSize, weight > Int(elements[other].fontWeight ?? 400) else { return }
                largest = max(largest, otherSize)
            }
            // Larger and bolder, but an amount or a total is no title.
            guard size >= largest * ratio, looksLikeTitle(text) else { return }
            context.report(
                ResultID.looks, element: first,
                evidence: [
                    (.text, .string(text)), (.fontSize, .number(size)), (.siblingSize, .number(largest)), (.fontWeight, .int(weight)),
                    (.unit, .string(snapshot.platform.sizeUnit)),
                ])
        }
        // Without declared fonts, where text frames hug their text and the capture says
        // which elements are headings: a short first text whose one line is clearly taller
        // than every other text of its group is a title drawn larger.
        let framesTell = snapshot.capabilities.contains(.textFramesHugText) && snapshot.capabilities.contains(.headings)
        let frameRatio = context[Parameter.frameRatio]
        func drawnLarger(_ first: Int, text: String, among texts: [Int]) {
            guard framesTell, looksLikeTitle(text), let height = elements[first].frame?.height, height > 0 else { return }
            var tallest = -Double.infinity
            for other in texts.dropFirst() {
                guard let otherHeight = elements[other].frame?.height, otherHeight > 0 else { return }
                tallest = max(tallest, otherHeight)
            }
            guard height >= tallest * frameRatio else { return }
            context.report(
                ResultID.drawnLarger, element: first,
                evidence: [
                    (.text, .string(text)), (.lineHeight, .number(height)), (.siblingLineHeight, .number(tallest)),
                    (.unit, .string(snapshot.platform.sizeUnit)),
                ])
        }
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            if context.outOfBudget() { return }
            check(snapshot.childIndices(of: parent))
        }
        check(snapshot.roots)
    }
}
