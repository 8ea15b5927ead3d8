/// `label.editable-description` — an editable field with a content description on
/// Android (Google ATF's EditableContentDescCheck): TalkBack speaks the description instead
/// of what the user typed, so they cannot hear their own input.
public enum LabelEditableDescriptionRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "label.editable-description",
        title: "Editable field has a content description",
        wcag: ["4.1.2"],
        severity: .error,
        enabledIn: [.android],
        help: """
            On Android a text field's `contentDescription` replaces its text for TalkBack: a field \
            described "Email" is read "Email" whatever the user typed, and its hint is never heard. \
            Checked on Android snapshots (on iOS a field's label and its value are both read). Fix: \
            remove the content description; name the field with `android:hint` or a visible label \
            joined by `android:labelFor`.
            """,
        examples: [
            RuleExample(
                "", triggers: ["email"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="email" class="android.widget.EditText" text="ann@example.com" content-desc="Email" package="com.example" clickable="true" enabled="true" focusable="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="email" class="android.widget.EditText" text="" hint="Email" package="com.example" clickable="true" enabled="true" focusable="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            // iOS reads a field's label and then its value: not this rule's.
            RuleExample(##"<element id="f" role="textfield" label="Email" value="ann@example.com" frame="0,0,200,44"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case described

        public var message: String {
            "Editable field has the content description \"${description}\", which TalkBack reads instead of what the user typed"
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        guard snapshot.platform == .android else { return }
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.role == .textfield, element.isVisible, !snapshot.texts.isBlank(element.label),
                let label = snapshot.text(element.label)
            else { continue }
            context.report(ResultID.described, element: index, evidence: [(.description, .string(label))])
        }
    }
}
