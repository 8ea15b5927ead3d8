/// `label.missing` — WCAG 4.1.2 / 1.1.1: controls and informative images need a name.
public enum LabelMissingRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "label.missing",
        title: "Missing accessible name",
        wcag: ["4.1.2", "1.1.1"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Every interactive accessibility element and every informative image needs a name: a label, \
            visible text, or (for text fields) a placeholder. Without one, VoiceOver reads the image's file \
            name or just "button", and TalkBack says "unlabelled". White space counts as empty. Decorative \
            images (accessible="false", or hidden) are exempt, and so is a toggle's knob (an unnamed switch \
            inside the named one, as SwiftUI draws a Toggle), and so is a frame with visible children inside a \
            named control (a feed's icon frame inside "Comments, 329"): the readers stop on the named \
            control, which takes the tap, and never on the frame (TalkBack's `shouldFocusNode`); an unnamed \
            leaf there is a stop of its own and is judged. On iOS a text field named only by its \
            placeholder is a warning (`placeholder-only`): VoiceOver reads the placeholder while the \
            field is empty, and once it is filled reads the value with no name at all (TalkBack \
            keeps saying an Android field's hint); a filled iOS field with no label is a warning too \
            (`value-only`): VoiceOver reads what was typed, not what the field is for. Fix: set accessibilityLabel / \
            contentDescription to what the control does ("Close", "Add to cart", "Email").
            """,
        examples: [
            RuleExample(##"<element id="close" role="button" image="icon_close" frame="0,0,44,44"/>"##, triggers: ["close"]),
            RuleExample(##"<element id="b" role="button" label="   " frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Close" image="icon_close" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="b" role="button" text="Pay" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="i" role="image" image="hero.jpg" frame="0,0,100,100"/>"##, triggers: ["i"]),
            RuleExample(##"<element id="i" role="image" image="divider" accessible="false" frame="0,0,100,1"/>"##),
            RuleExample(##"<element id="i" role="image" image="divider" hidden="true" frame="0,0,100,1"/>"##),
            // iOS: named by its placeholder alone, gone once the field is filled.
            RuleExample(##"<element id="f" role="textfield" placeholder="Email" frame="0,0,200,44"/>"##, triggers: ["f"], severity: .warning),
            RuleExample(##"<element id="f" role="textfield" label="Email" placeholder="name@example.com" frame="0,0,200,44"/>"##),
            // iOS: filled and unlabelled, its placeholder gone: only the value is read.
            RuleExample(##"<element id="f" role="textfield" value="ana@example.com" frame="0,0,200,44"/>"##, triggers: ["f:value-only"], severity: .warning),
            RuleExample(##"<element id="f" role="textfield" label="Email" value="ana@example.com" frame="0,0,200,44"/>"##),
            RuleExample(
                "", triggers: ["email"], severity: .warning,
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeTextField type="XCUIElementTypeTextField" name="email" placeholderValue="Email" value="Email" enabled="true" visible="true" accessible="true" x="20" y="200" width="350" height="44"/></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // A SwiftUI toggle's knob: an unnamed switch inside the named one is part of it.
            RuleExample(
                "",
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeSwitch type="XCUIElementTypeSwitch" name="Wi-Fi" label="Wi-Fi" value="1" enabled="true" visible="true" accessible="true" x="16" y="200" width="358" height="44"><XCUIElementTypeSwitch type="XCUIElementTypeSwitch" value="1" enabled="true" visible="true" accessible="true" x="310" y="206" width="51" height="31"/></XCUIElementTypeSwitch></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // A frame inside a named control: TalkBack stops on the control, not on the frame;
            // an unnamed leaf inside it is a stop of its own.
            RuleExample(
                "", triggers: ["leaf"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="comments" class="android.widget.LinearLayout" content-desc="Comments, 329" package="com.example" clickable="true" focusable="true" enabled="true" bounds="[900,1000][1080,1180]"><node resource-id="frame" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[900,1000][1080,1130]"><node class="android.widget.ImageView" package="com.example" bounds="[940,1010][1040,1110]"/></node><node resource-id="leaf" class="android.widget.ImageView" package="com.example" clickable="true" focusable="true" enabled="true" bounds="[940,1130][1040,1180]"/></node></node></hierarchy>"##
            ),
            // The same frame where nothing around it has a name: a control nobody can name.
            RuleExample(
                "", triggers: ["frame"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="frame" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[900,1000][1080,1130]"><node class="android.widget.ImageView" package="com.example" bounds="[940,1010][1040,1110]"/></node></node></hierarchy>"##
            ),
            // Android: TalkBack says the hint of a filled field too.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.EditText" hint="Email" package="com.example" clickable="true" focusable="true" enabled="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            // Material's bottom-sheet scrim is not important for accessibility by the library's
            // own layout, said or not in the dump; a clickable scrim of the app's own is judged.
            RuleExample(
                "", triggers: ["dim"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="com.example:id/touch_outside" class="android.view.View" package="com.example" clickable="true" enabled="true" bounds="[0,100][1080,2400]"/><node resource-id="dim" class="android.view.View" package="com.example" clickable="true" focusable="true" enabled="true" bounds="[0,100][1080,1200]"/></node></hierarchy>"##
            ),
            RuleExample(##"<element id="f" role="textfield" frame="0,0,200,44"/>"##, triggers: ["f"]),
            RuleExample(##"<element id="c" role="cell" interactive="true" frame="0,0,390,60"><element id="t" role="text" text="Wi-Fi"/></element>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.type, .uiautomatorNaf]

        case noName = "no-name"
        case imageNameRead = "image-name-read"
        case placeholderOnly = "placeholder-only"
        case valueOnly = "value-only"

        public var message: String {
            switch self {
            case .noName: "${role} has no accessible name"
            case .imageNameRead: "${role} has no accessible name; VoiceOver reads the image name \"${image}\""
            case .placeholderOnly: "Text field is named only by its placeholder \"${placeholder}\": once filled, VoiceOver reads no name"
            case .valueOnly: "Text field has no label: VoiceOver reads only what was typed (\"${value}\"), not what the field is for"
            }
        }
    }

    /// The placeholder of a text field that has no other name: no label, no text, and no
    /// value but the placeholder itself (XCUITest gives an empty field its placeholder as
    /// its value).
    static func placeholderOnly(_ index: Int, in snapshot: Snapshot) -> String? {
        let element = snapshot.elements[index], texts = snapshot.texts
        guard texts.isBlank(element.label), texts.isBlank(element.text), !texts.isBlank(element.placeholder),
            let placeholder = texts.string(element.placeholder)
        else { return nil }
        if !texts.isBlank(element.value), texts.string(element.value) != placeholder { return nil }
        return placeholder
    }

    /// The value of a filled text field with no other name: no label, no text, and a value
    /// that is not its placeholder (a secure field's bullets included).
    static func valueOnly(_ index: Int, in snapshot: Snapshot) -> String? {
        let element = snapshot.elements[index], texts = snapshot.texts
        guard texts.isBlank(element.label), texts.isBlank(element.text), !texts.isBlank(element.value), let value = texts.string(element.value)
        else { return nil }
        if !texts.isBlank(element.placeholder), texts.string(element.placeholder) == value { return nil }
        return value
    }

    /// True when unnamed control `index` has a visible child and its nearest enclosing
    /// control has a name: a frame the named control speaks and acts for.
    static func isFrameInNamedControl(_ index: Int, in snapshot: Snapshot, speaking: SpeakingControls) -> Bool {
        let control = Int(speaking.speaker[index])
        guard control >= 0, !snapshot.accessibleNameRef(of: control).isAbsent else { return false }
        return snapshot.childIndices(of: index).contains { snapshot.elements[$0].isVisible }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        // Made at the first unnamed control: most screens have few, and many none.
        var speaking: SpeakingControls?
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isAccessible, element.isVisible, element.role != .window else { continue }
            let informativeImage = element.role == .image
            guard element.isInteractive || informativeImage else { continue }
            if Targets.isInlineLink(index, in: snapshot), !snapshot.texts.isBlank(snapshot.elements[Int(element.parent)].text) { continue }
            if snapshot.platform == .ios, element.role == .textfield, let placeholder = placeholderOnly(index, in: snapshot) {
                context.report(
                    ResultID.placeholderOnly, element: index, evidence: [(.role, .string(element.role.name)), (.placeholder, .string(placeholder))],
                    severity: .warning)
                continue
            }
            // iOS: filled, with no label (and no placeholder left to say): the name is gone.
            if snapshot.platform == .ios, element.role == .textfield, let value = valueOnly(index, in: snapshot) {
                context.report(
                    ResultID.valueOnly, element: index, evidence: [(.role, .string(element.role.name)), (.value, .string(value))], severity: .warning)
                continue
            }
            guard !LabelText.hasName(of: index, in: snapshot) else { continue }
            // A SwiftUI toggle's knob (an unnamed Switch inside the named one): part of the
            // control that carries the name, not a control of its own.
            if Targets.isInnerPart(index, in: snapshot) { continue }
            // A frame inside a named control (a feed's icon frame inside "Comments, 329"): it
            // holds things to show and says nothing, so TalkBack does not stop on it
            // (`shouldFocusNode`: not a leaf, not speaking) and VoiceOver hears only the named
            // control, which takes the double-tap. A leaf is a stop of its own: judged.
            let controls = speaking ?? SpeakingControls(snapshot)
            speaking = controls
            if isFrameInNamedControl(index, in: snapshot, speaking: controls) { continue }
            let node = snapshot.node(index)
            var evidence: Evidence = [(.role, .string(element.role.name))]
            if let type = node.typeName, snapshot.capabilities.contains(.platformTypeNames) { evidence.append((.type, .string(type))) }
            if element.notAccessibilityFriendly == true { evidence.append((.uiautomatorNaf, .bool(true))) }
            if let image = node.image, !LabelText.isBlank(image) {
                evidence.append((.image, .string(image)))
                context.report(ResultID.imageNameRead, element: index, evidence: evidence)
            } else {
                context.report(ResultID.noName, element: index, evidence: evidence)
            }
        }
    }
}
