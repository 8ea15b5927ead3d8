/// `text-scaling.fixed-size` — text that does not follow the content-size setting
/// (WCAG 1.4.4; Apple's Dynamic Type).
public enum TextScalingFixedSizeRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "text-scaling.fixed-size",
        aliases: ["dynamic-type.fixed-size"],
        title: "Text does not follow the user's text size",
        wcag: ["1.4.4"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Text should grow with the user's text size. Reported for text with \
            scales-with-content-size="false", or with text-style="custom" that does not say it scales. \
            An error when the snapshot was taken at an accessibility size (ax1–ax5), where fixed text \
            hurts most; a warning otherwise. Fix: use a text style (UIFont.preferredFont / \
            UIFontMetrics, sp units on Android) and adjustsFontForContentSizeCategory.
            """,
        examples: [
            // A dump declares no fonts: not judged, and said so.
            RuleExample(
                "", incomplete: ["<snapshot>"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" text="Welcome" package="com.example" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            RuleExample(##"<element id="t" role="text" text="Note" font-size="17" scales-with-content-size="false"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Note" font-size="17" text-style="custom"/>"##, settings: ##"<settings content-size="ax3"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Note" font-size="17" text-style="custom" scales-with-content-size="true"/>"##),
            RuleExample(##"<element id="t" role="text" text="Note" font-size="17" text-style="body"/>"##),
            RuleExample(##"<element id="t" role="text" text="Note" font-size="17" scales-with-content-size="false" hidden="true"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.textStyle]

        case fixed

        public var message: String {
            "Text \"${text}\" has a fixed size of ${font-size} pt and will not grow with the ${content-size} text size"
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let accessibilitySizeSeverity = RuleParameter<Severity>("accessibility-size-severity", default: .error, help: "severity at ax1–ax5")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        guard context.requires(.fonts, TextScalingTerms.missingFonts(on: context.snapshot.platform)) else { return }
        let snapshot = context.snapshot
        let size = snapshot.settings.effectiveContentSize
        let severity = size.isAccessibilitySize ? context[Parameter.accessibilitySizeSeverity] : context.severity
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden else { continue }
            let fixed =
                element.scalesWithContentSize == false
                || (element.textStyle == .custom && element.scalesWithContentSize != true)
            guard fixed, let text = snapshot.text(snapshot.visibleTextRef(of: index)) else { continue }
            context.report(
                ResultID.fixed, element: index,
                evidence: [
                    (.text, .string(text)), (.fontSize, element.fontSize.map(JSON.number) ?? .null),
                    (.textStyle, .optional(element.textStyle?.rawValue)), (.contentSize, .string(size.rawValue)),
                ], severity: severity)
        }
    }
}
