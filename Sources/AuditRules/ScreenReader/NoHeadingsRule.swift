/// `screen-reader.no-headings` — a long screen whose Headings rotor is empty: a screen-reader
/// user can only swipe through every stop to find a section.
public enum NoHeadingsRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.no-headings",
        title: "Long screen without headings",
        wcag: [],
        severity: .notice,
        enabledIn: [],
        help: """
            VoiceOver and TalkBack users move through a long screen by its headings (the Headings rotor, \
            TalkBack's reading controls): a screen with many stops and no heading leaves them swiping \
            through every one. Judged on the screen reader's transcript: at least `minimum-stops` stops \
            and none of them announced as a heading. Opt-in (no shipped rule set runs it): a long list \
            of like rows needs no headings, so a team enables it where its screens have sections. Fix: \
            mark section titles as headings (`.isHeader` trait, `accessibilityHeading = true`, \
            `heading()` in Compose).
            """,
        examples: [
            RuleExample(rows(20, heading: false), triggers: ["<snapshot>"]),
            RuleExample(rows(20, heading: true)),
            RuleExample(rows(8, heading: false)),
            RuleExample(rows(8, heading: false), triggers: ["<snapshot>"], overrides: [Parameter.minimumStops.set(8)]),
            // An Appium source without `traits` says nothing of headings: not judged.
            RuleExample(
                "", incomplete: ["<snapshot>"], overrides: [Parameter.minimumStops.set(2)],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="One" name="One" label="One" x="20" y="100" width="200" height="30" enabled="true" visible="true" accessible="true"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Two" name="Two" label="Two" x="20" y="140" width="200" height="30" enabled="true" visible="true" accessible="true"/></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // One with `traits` does: two stops, neither a heading.
            RuleExample(
                "", triggers: ["<snapshot>"], overrides: [Parameter.minimumStops.set(2)],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" traits=""><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="One" name="One" label="One" x="20" y="100" width="200" height="30" enabled="true" visible="true" accessible="true" traits="StaticText"/><XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Two" name="Two" label="Two" x="20" y="140" width="200" height="30" enabled="true" visible="true" accessible="true" traits="StaticText"/></XCUIElementTypeApplication></AppiumAUT>"##
            ),
        ])

    /// `count` rows of text, the first a heading when `heading`.
    static func rows(_ count: Int, heading: Bool) -> String {
        (0..<count).map { row in
            let traits = heading && row == 0 ? #" traits="header""# : ""
            return #"<element id="r\#(row)" role="text" text="Row \#(row)" frame="20,\#(40 + row * 40),300,36"\#(traits)/>"#
        }.joined()
    }

    public typealias Parameters = Parameter

    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}
        public let minimumStops = RuleParameter<Double>("minimum-stops", default: 20, help: "fewest stops that make a screen long")
    }

    public enum ResultID: String, RuleResults {
        case noHeadings = "no-headings"

        public var message: String { "The screen reader makes ${count} stops here and none is a heading to jump between them" }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        guard context.requires(.headings, "does not say which elements are headings (no `traits` or `heading` attributes)") else { return }
        let minimum = Int(context[Parameter.minimumStops])
        let transcript = Transcript.of(context.snapshot)
        guard transcript.stops.count >= max(1, minimum), transcript.headings.isEmpty else { return }
        context.report(.noHeadings, element: nil, evidence: [(.count, .int(transcript.stops.count))])
    }
}
