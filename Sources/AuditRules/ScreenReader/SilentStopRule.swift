/// `screen-reader.silent-stop` — a stop of the screen reader's swipe order that says
/// nothing, or only what kind of thing it is.
public enum SilentStopRule: Rule {
    public static let description = RuleDescription(
        id: "screen-reader.silent-stop",
        title: "Screen-reader stop that says nothing useful",
        wcag: ["4.1.2", "1.1.1"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Every swipe lands somewhere; a stop that says nothing (an accessibility element with no name, \
            value or role — often a wrapper made accessible by mistake) or only a role word ("image", \
            "button" as the name) costs the user a swipe and tells them nothing. Judged on the screen \
            reader's transcript. Controls without any name are label.missing's, and a label that repeats the \
            element's own role ("switch" on a switch) label.redundant-trait's; this rule reports the rest. \
            Fix: give the element a name that says what it is or does, or stop it being an accessibility \
            element (`isAccessibilityElement = false`, `importantForAccessibility="no"`).
            """,
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="w" role="other" accessible="true" frame="20,100,100,100"/>"##, triggers: ["w:silent"]),
            RuleExample(##"<element id="i" role="image" label="icon" frame="20,100,100,100"/>"##, triggers: ["i:role-only"]),
            RuleExample(##"<element id="b" role="button" label="Image" frame="20,100,100,44"/>"##, triggers: ["b:role-only"]),
            // A label that repeats the element's own role is label.redundant-trait's.
            RuleExample(##"<element id="b" role="button" label="Button" frame="20,100,100,44"/>"##),
            RuleExample(##"<element id="i" role="image" label="Team photo" frame="20,100,100,100"/>"##),
            RuleExample(##"<element id="w" role="other" frame="20,100,100,100"/>"##),
            RuleExample(##"<element id="b" role="button" frame="20,100,100,44"/>"##),
            RuleExample(##"<element id="v" role="other" interactive="true" frame="20,100,100,44"/>"##),
        ])

    public enum ResultID: String, RuleResults {
        case silent
        case roleOnly = "role-only"

        public var message: String {
            switch self {
            case .silent: "The screen reader stops here and says nothing"
            case .roleOnly: "The screen reader stops here and says only \"${speech}\": the name \"${name}\" is a role word"
            }
        }
    }

    static let roleWords: Set<String> = [
        "button", "image", "icon", "img", "imageview", "image view", "view", "graphic", "picture", "link", "text", "label",
        "unlabeled", "unlabelled", "untitled", "tab", "switch", "checkbox",
    ]

    /// The name is the stop's own role word ("switch" on a switch): label.redundant-trait
    /// reports that.
    static func repeatsOwnRole(_ stop: TranscriptStop) -> Bool {
        guard let role = stop.role else { return false }
        let name = stop.name.lowercased()
        return name == role.rawValue || stop.speech.lowercased().hasPrefix(name + ", " + name)
            || (role == .edit && name == "text field") || (role == .switch && name == "switch button")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        for stop in Transcript.of(snapshot).stops {
            if context.outOfBudget() { return }
            // A control without a name is label.missing's finding.
            if stop.speech.isEmpty, !snapshot.elements[stop.element].isInteractive {
                context.report(.silent, element: stop.element, evidence: [])
            } else if roleWords.contains(stop.name.lowercased()), !repeatsOwnRole(stop) {
                context.report(.roleOnly, element: stop.element, evidence: [(.name, .string(stop.name)), (.speech, .string(stop.speech))])
            }
        }
    }
}
