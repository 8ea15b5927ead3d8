/// `voiceover.traits` — traits that contradict each other, and interactive elements that
/// VoiceOver does not announce as actionable.
public enum TraitsRule: Rule {
    public static let description = RuleDescription(
        id: "voiceover.traits",
        title: "Conflicting or missing traits",
        wcag: ["4.1.2"],
        severity: .warning,
        enabledIn: [.ios, .android],
        help: """
            Traits tell VoiceOver what an element is and how to use it. A button that is also adjustable \
            (swipe up/down to change) or also a link announces contradictions; an interactive element with \
            neither a control role nor a button, link or adjustable trait is read as plain text, so users do \
            not know they can activate it (a tappable image, a clickable TextView, a clickable layout such as a \
            React Native button or a tab drawn as a ViewGroup). On Android TalkBack \
            still adds "double-tap to activate" but never says "button": a notice there. Fix: give one role — \
            the button trait for actions, link for navigation to content, adjustable for values.
            """,
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="b" role="button" label="Volume" traits="adjustable"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="other" accessible="true" label="Terms" traits="button link"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="t" role="text" text="Forgot password?" interactive="true"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Forgot password?" interactive="true" traits="button"/>"##),
            RuleExample(##"<element id="b" role="button" label="Play"/>"##),
            RuleExample(##"<element id="s" role="slider" label="Volume" traits="adjustable"/>"##),
            RuleExample(##"<element id="c" role="cell" label="Wi-Fi" interactive="true"/>"##),
            // React Native's button: a clickable ViewGroup with a text inside.
            RuleExample(
                "", triggers: ["rn"], severity: .notice,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="rn" class="android.view.ViewGroup" package="com.example" clickable="true" focusable="true" enabled="true" bounds="[40,400][1040,560]"><node class="android.widget.TextView" text="Continue" package="com.example" bounds="[400,440][680,520]"/></node></node></hierarchy>"##
            ),
            // A sheet's full-screen scrim is a layer, not a control.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.FrameLayout" content-desc="Dismiss" package="com.example" clickable="true" enabled="true" bounds="[0,0][1080,2400]"/></node></hierarchy>"##
            ),
            RuleExample(
                "", triggers: ["forgot"], severity: .notice,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="forgot" class="android.widget.TextView" text="Forgot password?" package="com.example" clickable="true" enabled="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case conflict
        case notActionable = "not-actionable"

        public var message: String {
            switch self {
            case .conflict: "Traits conflict: ${traits}"
            case .notActionable: "Interactive ${role} is not announced as a button or link"
            }
        }
    }

    /// True when `frame` covers most of the screen: a layer, not a control.
    static func isFullScreen(_ frame: Rect?, in snapshot: Snapshot) -> Bool {
        guard let frame, let width = snapshot.width, let height = snapshot.height, width > 0, height > 0 else { return false }
        return frame.width * frame.height >= 0.6 * width * height
    }

    /// A list's row or a grid's card: an item of a scrolling container (its child or
    /// grandchild), which TalkBack announces with its place in the list — not a button to
    /// name as one. (The children of Android lists are cells already.)
    static func isListItem(_ index: Int, in snapshot: Snapshot) -> Bool {
        var current = index
        for _ in 0..<2 {
            let parent = Int(snapshot.elements[current].parent)
            guard parent >= 0 else { return false }
            if !snapshot.elements[parent].scrollAxes.isEmpty { return true }
            current = parent
        }
        return false
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        // Layouts that hold controls of their own wrap them (a stepper around its − and +):
        // the controls inside are what is announced. One backward pass: children follow
        // their parents. Asked of Android layouts only.
        let holdsControls = snapshot.platform == .android ? Targets.hasDescendant(in: snapshot) { snapshot.elements[$0].isInteractive } : []
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isAccessible, element.isVisible else { continue }
            let isButton = element.role == .button || element.traits.contains(.button)
            let isLink = element.role == .link || element.traits.contains(.link)
            let isAdjustable = element.traits.contains(.adjustable) || element.role == .slider || element.role == .stepper
            var conflicts: [String] = []
            if isButton, element.traits.contains(.adjustable) { conflicts.append("button + adjustable") }
            if isButton, isLink { conflicts.append("button + link") }
            if !conflicts.isEmpty {
                context.report(
                    ResultID.conflict, element: index,
                    evidence: [
                        (.traits, .string(conflicts.joined(separator: ", "))), (.role, .string(element.role.name)),
                    ])
                continue
            }
            guard element.isInteractive, element.isEnabled else { continue }
            // A clickable layout on Android (a React Native button, a tab drawn as a
            // ViewGroup) says no more than a clickable Compose view: judged alike. A scrolling
            // container and a full-screen layer (a scrim) are not controls to announce.
            let androidLayout =
                snapshot.platform == .android && element.role == .container && element.scrollAxes.isEmpty
                && !isFullScreen(element.frame, in: snapshot) && !isListItem(index, in: snapshot) && !holdsControls[index]
            let controlRole =
                switch element.role {
                case .cell, .window: true
                case .container: !androidLayout
                default: element.role.isInteractiveByDefault
                }
            if !controlRole, !isButton, !isLink, !isAdjustable {
                // TalkBack still says "double-tap to activate" for any clickable node, so on
                // Android the missing role is a notice; VoiceOver says nothing of the kind.
                context.report(
                    ResultID.notActionable, element: index,
                    evidence: [
                        (.role, .string(element.role.name)), (.traits, .array(element.traits.names.map(JSON.string))),
                    ], severity: context.snapshot.platform == .android ? .notice : context.severity)
            }
        }
    }
}
