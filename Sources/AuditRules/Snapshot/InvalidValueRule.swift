/// `snapshot.invalid-value` — an attribute whose value could not be read (docs/snapshot-format.md). The
/// rest of the snapshot is audited; rules that needed the value may report incomplete.
public enum InvalidValueRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "snapshot.invalid-value",
        title: "Unreadable attribute value",
        wcag: [],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            A value in the snapshot could not be read: a bad number, colour, frame, boolean or \
            enumeration. The element is still audited without it, so checks that needed it cannot judge \
            it. Fix the snapshot exporter: the message names the attribute and what was expected.
            """,
        examples: [
            RuleExample(##"<element id="b" role="button" label="Close" frame="1,2,abc,4"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Close" foreground="#GGG"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="1,2,3,4" foreground="#FFF"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.line]

        case invalid

        public var message: String {
            "${owner} attribute ${attribute}=\"${value}\" cannot be read; expected ${expected}"
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        for invalid in context.snapshot.invalidValues {
            context.report(
                ResultID.invalid, element: invalid.element,
                evidence: [
                    (.owner, .string(invalid.owner)), (.attribute, .string(invalid.attribute)),
                    (.value, .string(invalid.value)), (.expected, .string(invalid.expected)), (.line, .int(invalid.line)),
                ])
        }
    }
}
