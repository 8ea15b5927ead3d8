/// `text-scaling.truncated` — text cut off or clipped, most severe at accessibility text
/// sizes (WCAG 1.4.4).
public enum TextScalingTruncatedRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "text-scaling.truncated",
        aliases: ["dynamic-type.truncated"],
        title: "Text is truncated",
        wcag: ["1.4.4"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Text must not be cut off when it grows. Reported when the snapshot says truncated="true", \
            or when the text cannot fit its frame by an estimate: each character takes `glyph-width` \
            em (CJK and emoji a full em), lines are `line-height` × the font size, and the text must \
            fit in the frame's lines. The estimate is a notice; a stated truncation is a warning, and \
            an error at ax1–ax5. Fix: allow more lines (numberOfLines = 0), let the layout grow, or \
            wrap instead of truncating.
            """,
        examples: [
            RuleExample(##"<element id="t" role="text" text="Note font size for all your notes" font-size="17" truncated="true"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="A rather long title that cannot fit" frame="0,0,100,20" font-size="17"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Short" frame="0,0,100,20" font-size="17"/>"##),
            RuleExample(##"<element id="t" role="text" text="A rather long title that wraps onto lines" frame="0,0,100,150" font-size="17"/>"##),
            RuleExample(
                ##"<element id="t" role="text" text="A rather long title that cannot fit" frame="0,0,100,20" font-size="17"/>"##, overrides: [Parameter.estimate.set(false)]),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.lines, .stated]

        case truncated
        case estimated

        public var message: String {
            switch self {
            case .truncated: "Text \"${text}\" is truncated at the ${content-size} text size"
            case .estimated: "Text \"${text}\" needs about ${needed} pt at ${font-size} pt but its frame holds ${available} pt"
            }
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let accessibilitySizeSeverity = RuleParameter<Severity>("accessibility-size-severity", default: .error, help: "severity at ax1–ax5")
        public let estimate = RuleParameter<Bool>("estimate", default: true, help: "estimate truncation from text length and frame")
        public let glyphWidth = RuleParameter<Double>("glyph-width", default: 0.5, help: "average Latin glyph width in em")
        public let lineHeight = RuleParameter<Double>("line-height", default: 1.2, help: "line height in em")
        public let estimateSeverity = RuleParameter<Severity>("estimate-severity", default: .notice, help: "severity of an estimated truncation")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        guard context.requires(.fonts, TextScalingTerms.missingFonts(on: context.snapshot.platform)) else { return }
        let snapshot = context.snapshot
        let size = snapshot.settings.effectiveContentSize
        let statedSeverity = size.isAccessibilitySize ? context[Parameter.accessibilitySizeSeverity] : context.severity
        let estimate = context[Parameter.estimate]
        let glyph = context[Parameter.glyphWidth], lineHeight = context[Parameter.lineHeight]
        let estimateSeverity = context[Parameter.estimateSeverity]
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden else { continue }
            let textRef = snapshot.visibleTextRef(of: index)
            guard !textRef.isAbsent else { continue }
            if element.truncated == true {
                context.report(
                    ResultID.truncated, element: index,
                    evidence: [
                        (.text, .optional(snapshot.text(textRef))), (.contentSize, .string(size.rawValue)), (.stated, .bool(true)),
                    ], severity: statedSeverity)
                continue
            }
            guard estimate, element.truncated == nil, let frame = element.frame, frame.width > 0, frame.height > 0,
                let fontSize = element.fontSize, element.role == .text
            else { continue }
            // ASCII text (most of it): one em fraction per byte, newlines aside; else by character.
            let asciiEms: Double? = snapshot.texts.withBytes(textRef) { bytes in
                guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                return Double(bytes.reduce(0) { $0 + ($1 == 0x0A || $1 == 0x0D ? 0 : 1) }) * glyph
            }
            let ems =
                asciiEms
                ?? (snapshot.text(textRef) ?? "").reduce(0.0) { total, character in
                    guard let scalar = character.unicodeScalars.first else { return total }
                    if character.isNewline { return total }
                    return total + (scalar.value >= 0x2E80 ? 1.0 : glyph)
                }
            let needed = ems * fontSize
            let lines = max(1, (frame.height / (fontSize * lineHeight)).rounded(.down))
            let available = frame.width * lines
            guard needed > available * 1.1 else { continue }
            context.report(
                ResultID.estimated, element: index,
                evidence: [
                    (.text, .optional(snapshot.text(textRef))), (.fontSize, .number(fontSize)), (.needed, .number(needed.rounded())),
                    (.available, .number(available.rounded())), (.lines, .number(lines)), (.stated, .bool(false)),
                ], severity: estimateSeverity)
        }
    }
}
