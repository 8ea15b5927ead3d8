/// `screen-reader.modal-escape` — a modal VoiceOver users cannot dismiss with the escape
/// gesture, and a main action without a magic-tap equivalent.
public enum ModalEscapeRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.modal-escape",
        aliases: ["voiceover.modal-escape"],
        title: "Modal without escape, main action without magic tap",
        wcag: ["2.1.2", "2.1.1"],
        severity: .warning,
        enabledIn: [.ios],
        help: """
            VoiceOver's escape gesture (a two-finger Z) dismisses modals and goes back; a modal that does not \
            implement it (accessibilityPerformEscape) traps the user: reported for modal="true" with \
            supports-escape="false". The magic tap (a two-finger double tap) should trigger a screen's main \
            action — play/pause, answer, send (accessibilityPerformMagicTap): reported for an element with \
            main-action="true" and magic-tap="false". Only judged when the snapshot says so.
            """,
        examples: [
            RuleExample(##"<element id="sheet" role="container" modal="true" supports-escape="false"><element role="button" label="Done"/></element>"##, triggers: ["sheet"]),
            RuleExample(##"<element id="sheet" role="container" modal="true" supports-escape="true"/>"##),
            RuleExample(##"<element id="sheet" role="container" modal="true"/>"##),
            RuleExample(##"<element id="play" role="button" label="Play" main-action="true" magic-tap="false"/>"##, triggers: ["play"]),
            RuleExample(##"<element id="play" role="button" label="Play" main-action="true" magic-tap="true"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.magicTap, .modal, .supportsEscape]

        case noEscape = "no-escape"
        case noMagicTap = "no-magic-tap"

        public var message: String {
            switch self {
            case .noEscape: "Modal does not support the VoiceOver escape gesture"
            case .noMagicTap: "Main action \"${name}\" has no magic-tap equivalent"
            }
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isVisible else { continue }
            if element.modal == true, element.supportsEscape == false {
                context.report(ResultID.noEscape, element: index, evidence: [(.modal, .bool(true)), (.supportsEscape, .bool(false))])
            }
            if element.mainAction == true, element.magicTap == false {
                context.report(
                    ResultID.noMagicTap, element: index,
                    evidence: [
                        (.name, .string(snapshot.node(index).accessibleName ?? "")), (.magicTap, .bool(false)),
                    ])
            }
        }
    }
}
