/// `screen-reader.silent-stop` — a stop of the screen reader's swipe order that says
/// nothing, or only what kind of thing it is.
public enum SilentStopRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
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

    /// Whether `name`, lower-cased, is one of ``roleWords``. Asked of every stop: an ASCII
    /// name is compared by its bytes, folded in place (a lower-cased copy and a set lookup
    /// for each stop were a fiftieth of the daemon's CPU under load); others as before.
    static func isRoleWord(_ name: String) -> Bool {
        let ascii = name.withUTF8Bytes { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard bytes.count <= roleWordBytes.maxLength else { return false }
            return roleWordBytes.words.contains { word in
                word.count == bytes.count && zip(word, bytes).allSatisfy { $0 == ($1 &- UInt8(ascii: "A") < 26 ? $1 | 0x20 : $1) }
            }
        }
        return ascii ?? roleWords.contains(name.lowercased())
    }

    private static let roleWordBytes = (words: roleWords.map { Array($0.utf8) }, maxLength: roleWords.map(\.utf8.count).max() ?? 0)

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
        let stops = Transcript.of(snapshot).stops
        // Read in place: a copy of each stop retained and released its strings.
        for index in stops.indices {
            if context.outOfBudget() { return }
            // A control without a name is label.missing's finding.
            if stops[index].speech.isEmpty, !snapshot.elements[stops[index].element].isInteractive {
                context.report(.silent, element: stops[index].element, evidence: [])
            } else if isRoleWord(stops[index].name), !repeatsOwnRole(stops[index]) {
                context.report(
                    .roleOnly, element: stops[index].element,
                    evidence: [(.name, .string(stops[index].name)), (.speech, .string(stops[index].speech))])
            }
        }
    }
}
