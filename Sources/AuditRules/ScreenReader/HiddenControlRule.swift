/// `screen-reader.hidden-control` — a control a finger can use that the screen reader
/// cannot reach: interactive, visible and enabled, but hidden from assistive technology
/// (iOS `accessible="false"` on a hittable button, Android `a11y-important="false"` on a
/// clickable view), with nothing around or inside it that speaks for it.
public enum HiddenControlRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.hidden-control",
        title: "Control hidden from the screen reader",
        wcag: ["4.1.2", "2.1.1"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            An element that takes taps but is not an accessibility element cannot be found by swiping \
            through the screen with VoiceOver or TalkBack, nor activated by Switch Control or Voice \
            Control by name. On Android the only flag a capture has is UiAutomator2's `a11y-important`, \
            which is false on views TalkBack does reach (Gmail's search field and navigation button): it \
            is not evidence, so Android controls are not judged and the audit says so as incomplete. \
            Not reported for a full-screen layer (a sheet's touch-outside scrim), nor when an accessible ancestor that takes taps speaks for it (a \
            cell that is the accessibility element for its button) or accessible elements inside it do. Fix: make it an \
            accessibility element (`isAccessibilityElement = true`, `importantForAccessibility="yes"`), \
            or give its action to the element that is one (a custom action).
            """,
        examples: [
            RuleExample(##"<element id="b" role="button" label="Pay" accessible="false" frame="20,700,350,50"/>"##, triggers: ["b"]),
            // UiAutomator2's a11y-important="false": TalkBack reaches such views; not judged.
            RuleExample(
                "", incomplete: ["<snapshot>"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="menu" class="android.widget.ImageButton" content-desc="Menu" package="com.example" clickable="true" enabled="true" a11y-important="false" bounds="[0,100][168,268]"/></node></hierarchy>"##
            ),
            RuleExample(
                ##"<element id="c" role="cell" interactive="true" label="Order 42" frame="0,100,390,60"><element id="b" role="button" label="Open" accessible="false" frame="300,110,80,40"/></element>"##
            ),
            RuleExample(##"<element id="b" role="button" accessible="false" frame="20,700,350,50"><element id="t" role="text" text="Pay" frame="30,710,100,30"/></element>"##),
            RuleExample(##"<element id="b" role="button" label="Pay" frame="20,700,350,50"/>"##),
            RuleExample(##"<element id="b" role="button" label="Pay" accessible="false" enabled="false" frame="20,700,350,50"/>"##),
            // A bottom sheet's full-screen touch-outside scrim is hidden on purpose.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="com.example:id/touch_outside" class="android.view.View" package="com.example" clickable="true" enabled="true" a11y-important="false" bounds="[0,0][1080,2400]"/></node></hierarchy>"##
            ),
            // The keyboard's dictation key, outside the keyboard element: the system's.
            RuleExample(
                "",
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="780" width="390" height="64"><XCUIElementTypeButton type="XCUIElementTypeButton" name="dictation" label="Dictate" enabled="true" visible="true" accessible="false" x="325" y="780" width="60" height="60" traits="KeyboardKey, Button"/></XCUIElementTypeOther></XCUIElementTypeApplication></AppiumAUT>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case hidden

        public var message: String { "Interactive ${role} is hidden from the screen reader: it cannot be reached by swiping or named by voice" }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        var candidates: [Int] = []
        for index in elements.indices {
            let element = elements[index]
            guard element.isInteractive, element.isVisible, element.isEnabled, !element.isSystemUI, !element.covered, !element.isAccessible,
                !element.isHidden, let frame = element.touchFrame, !frame.isEmpty
            else { continue }
            candidates.append(index)
        }
        guard !candidates.isEmpty else { return }
        // An ancestor speaks for it when it is an accessibility element that takes the tap
        // itself (a cell, a clickable row), not merely a focusable container.
        let spokenAncestors = Targets.nearestAncestors(in: snapshot) { ancestor in
            let element = elements[ancestor]
            return element.isAccessible && element.isVisible && (element.isInteractive || element.role == .cell)
        }
        // Whether anything inside speaks: one backward pass (children follow their parents),
        // so a chain of 100,000 hidden controls costs no more than a flat list.
        let speaksInside = Targets.hasDescendant(in: snapshot) { elements[$0].isAccessible && elements[$0].isVisible }
        let screenArea = (snapshot.width ?? 0) * (snapshot.height ?? 0)
        var unjudged = 0
        for index in candidates {
            if context.outOfBudget() { return }
            if spokenAncestors[index] >= 0 || speaksInside[index] { continue }
            // A full-screen layer (a sheet's touch-outside scrim) is hidden on purpose.
            if let frame = elements[index].touchFrame, screenArea > 0, frame.width * frame.height >= 0.8 * screenArea { continue }
            // On Android the flag is UiAutomator2's reading of `isImportantForAccessibility`,
            // false on views TalkBack does reach (apps with their own node providers, views
            // whose importance is decided at run time): not evidence. Counted, not judged.
            if snapshot.platform == .android {
                unjudged += 1
                continue
            }
            let severity = context.severity
            context.report(ResultID.hidden, element: index, evidence: [(.role, .string(elements[index].role.name))], severity: severity)
        }
        if unjudged > 0 {
            context.cannotJudge(
                "\(unjudged) controls are marked not important for accessibility (a11y-important=\"false\"), which TalkBack does not always follow; whether it reaches them cannot be told from the dump"
            )
        }
    }
}
