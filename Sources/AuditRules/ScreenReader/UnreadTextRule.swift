/// `screen-reader.unread-text` — text drawn on the screen that no stop of the screen
/// reader says: a blind user never hears it.
public enum UnreadTextRule: Rule {
    public static let description = RuleDescription(
        id: "screen-reader.unread-text",
        title: "Visible text the screen reader never says",
        wcag: ["1.3.1", "4.1.2"],
        severity: .warning,
        help: """
            Text on the screen that is in no stop's speech is seen and never heard: a caption hidden from \
            assistive technology (`accessible="false"`, `importantForAccessibility="no"`), or text inside an \
            element whose name replaces it and says something else. Judged on the screen reader's \
            transcript: every visible text of at least two letters on the app's screen (not the system's UI, \
            not covered) must be found, case and punctuation aside, in the speech of some stop. Text inside a \
            control named by a label of its own is screen-reader.label-in-name's. Fix: make the text an \
            accessibility element, or include it in the name of the element that speaks for it.
            """,
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="t" role="text" text="Offer ends Friday" accessible="false" frame="16,100,300,20"/>"##, triggers: ["t"]),
            RuleExample(
                ##"<element id="c" role="cell" label="Order 42" frame="0,100,390,60"><element id="t" role="text" text="Shipped today" frame="16,110,200,20"/></element>"##,
                triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Offer ends Friday" frame="16,100,300,20"/>"##),
            RuleExample(
                ##"<element id="c" role="cell" label="Order 42, shipped today" frame="0,100,390,60"><element id="t" role="text" text="Shipped today" frame="16,110,200,20"/></element>"##
            ),
            RuleExample(##"<element id="t" role="text" text="›" accessible="false" frame="16,100,20,20"/>"##),
            RuleExample(
                ##"<element id="b" role="button" label="Close dialog" frame="0,100,44,44"><element id="t" role="text" text="Close" frame="4,110,36,20"/></element>"##),
        ])

    public enum ResultID: String, RuleResults {
        case unread

        public var message: String { "\"${text}\" is on the screen but no stop of the screen reader says it" }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let transcript = Transcript.of(snapshot)
        let spoken = transcript.stops.map { LabelInNameRule.words($0.speech) }.joined(separator: " | ")
        // Text inside a control named by its own label: label-in-name judges that one.
        var namedControl = [Bool](repeating: false, count: snapshot.elements.count)
        for (index, element) in snapshot.elements.enumerated() {
            let parent = Int(element.parent)
            let isNamedControl = element.isInteractive && !snapshot.texts.isBlank(element.label)
            namedControl[index] = isNamedControl || (parent >= 0 && namedControl[parent])
        }
        for (index, element) in snapshot.elements.enumerated() {
            if context.outOfBudget() { return }
            guard !snapshot.texts.isBlank(element.text), element.isVisible, !element.isSystemUI, !element.covered,
                let frame = element.frame, frame.width > 0, frame.height > 0, !namedControl[index],
                let text = snapshot.texts.string(element.text)
            else { continue }
            let shown = LabelInNameRule.words(text)
            guard shown.unicodeScalars.filter({ $0.properties.isAlphabetic }).count >= 2, !spoken.contains(shown) else { continue }
            context.report(.unread, element: index, evidence: [("text", .string(text))])
        }
    }
}
