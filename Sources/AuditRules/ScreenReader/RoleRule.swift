/// `screen-reader.role` — traits that contradict each other, and interactive elements that
/// VoiceOver does not announce as actionable.
public enum RoleRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.role",
        aliases: ["voiceover.traits"],
        title: "Conflicting or missing role",
        wcag: ["4.1.2"],
        severity: .warning,
        enabledIn: [.ios, .android],
        help: """
            Traits tell VoiceOver what an element is and how to use it. A button that is also adjustable \
            (swipe up/down to change) or also a link announces contradictions; an interactive element with \
            neither a control role nor a button, link or adjustable trait is read as plain text, so users do \
            not know they can activate it (a tappable image, a clickable TextView, a clickable layout such as a \
            React Native button alone under a ScrollView). Not reported: a tab its reader announces as one (its \
            position in its label — Flutter's "Tab 2 of 5", React Navigation's "Home, tab, 1 of 4" — or an item \
            of a tab bar or of Material's bottom navigation), a list's row (a cell, or one of a run of alike rows \
            in a scroller: a FlatList; a strip's items — tabs or chips on a RecyclerView one row and at most 64 dp high — \
            are controls, judged), and an element with no name at all (label.missing reports it: one \
            defect, one finding). An iOS capture of an app that draws its own tab bar (Flutter, a game engine) \
            gives its items as images or texts and says nothing of taps: three or more side by side along \
            the screen's bottom edge, spanning most of its width and inside no tab bar, are reported as \
            `looks-like-tab` — a warning inferred from the layout, a notice where the label says the tab's \
            place ("Tab 1 of 3"), which VoiceOver reads. On Android TalkBack \
            still adds "double-tap to activate" but never says "button": a notice there. Fix: give one role — \
            the button trait for actions, link for navigation to content, adjustable for values.
            """,
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
            // Tabs the readers announce as tabs: Flutter's "Tab 2 of 5", Material's bottom
            // navigation item, React Navigation's "Home, tab, 1 of 4".
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.Button" content-desc="Inventory&#10;Tab 2 of 5" package="com.example" clickable="true" enabled="true" bounds="[216,2200][432,2400]"/><node resource-id="com.example:id/navigation_bar_item_large_label_view" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[432,2200][648,2400]"><node class="android.widget.TextView" text="Orders" package="com.example" bounds="[460,2300][620,2380]"/></node><node class="android.view.ViewGroup" content-desc="Home, tab, 1 of 4" package="com.example" clickable="true" enabled="true" bounds="[648,2200][864,2400]"/></node></hierarchy>"##
            ),
            // A React Native button alone under a ScrollView is a button (a notice), where a
            // FlatList's alike rows are list items.
            RuleExample(
                "", triggers: ["alone"], severity: .notice,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.ScrollView" scrollable="true" package="com.example" bounds="[0,0][1080,2400]"><node class="android.view.ViewGroup" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="row1" class="android.view.ViewGroup" content-desc="scripts" package="com.example" clickable="true" enabled="true" bounds="[0,100][1080,250]"/><node resource-id="row2" class="android.view.ViewGroup" content-desc="notes" package="com.example" clickable="true" enabled="true" bounds="[0,250][1080,400]"/><node resource-id="row3" class="android.view.ViewGroup" content-desc="photos" package="com.example" clickable="true" enabled="true" bounds="[0,400][1080,550]"/><node resource-id="alone" class="android.view.ViewGroup" content-desc="Continue" package="com.example" clickable="true" enabled="true" bounds="[40,2000][1040,2150]"/></node></node></node></hierarchy>"##
            ),
            // React Native buttons of a form under a ScrollView, stacked with margins between
            // them: buttons, not a list's rows.
            RuleExample(
                "", triggers: ["google", "apple", "email"], severity: .notice,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.ScrollView" scrollable="true" package="com.example" bounds="[0,0][1080,2400]"><node class="android.view.ViewGroup" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="google" class="android.view.ViewGroup" content-desc="Continue with Google" package="com.example" clickable="true" enabled="true" bounds="[40,1200][1040,1340]"/><node resource-id="apple" class="android.view.ViewGroup" content-desc="Continue with Apple" package="com.example" clickable="true" enabled="true" bounds="[40,1380][1040,1520]"/><node resource-id="email" class="android.view.ViewGroup" content-desc="Sign up with email" package="com.example" clickable="true" enabled="true" bounds="[40,1560][1040,1700]"/></node></node></node></hierarchy>"##
            ),
            // A tab bar drawn by the app (Flutter on iOS): images in a row along the bottom edge.
            RuleExample(
                "", triggers: ["home", "alerts", "menu"], severity: .warning,
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" visible="true" accessible="false"><XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="760" width="390" height="84" visible="true" accessible="false"><XCUIElementTypeImage type="XCUIElementTypeImage" name="home" label="Home" x="10" y="770" width="110" height="50" visible="true" accessible="true"/><XCUIElementTypeImage type="XCUIElementTypeImage" name="alerts" label="Alerts" x="140" y="770" width="110" height="50" visible="true" accessible="true"/><XCUIElementTypeImage type="XCUIElementTypeImage" name="menu" label="Menu" x="270" y="770" width="110" height="50" visible="true" accessible="true"/></XCUIElementTypeOther></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // … a notice where the label says the tab's place; XCUITest's own tab bar passes.
            RuleExample(
                "", triggers: ["jobs", "notes", "me"], severity: .notice,
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" visible="true" accessible="false"><XCUIElementTypeImage type="XCUIElementTypeImage" name="jobs" label="Jobs&#10;Tab 1 of 3" x="10" y="770" width="110" height="50" visible="true" accessible="true"/><XCUIElementTypeImage type="XCUIElementTypeImage" name="notes" label="Notes&#10;Tab 2 of 3" x="140" y="770" width="110" height="50" visible="true" accessible="true"/><XCUIElementTypeImage type="XCUIElementTypeImage" name="me" label="Me&#10;Tab 3 of 3" x="270" y="770" width="110" height="50" visible="true" accessible="true"/></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            RuleExample(
                "",
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844" visible="true" accessible="false"><XCUIElementTypeTabBar type="XCUIElementTypeTabBar" x="0" y="760" width="390" height="84" visible="true" accessible="false"><XCUIElementTypeButton type="XCUIElementTypeButton" name="Home" label="Home" x="10" y="770" width="110" height="50" visible="true" accessible="true"><XCUIElementTypeImage type="XCUIElementTypeImage" name="house" label="Home" x="40" y="775" width="50" height="30" visible="true" accessible="true"/></XCUIElementTypeButton><XCUIElementTypeImage type="XCUIElementTypeImage" name="alerts" label="Alerts" x="140" y="770" width="110" height="50" visible="true" accessible="true"/><XCUIElementTypeImage type="XCUIElementTypeImage" name="menu" label="Menu" x="270" y="770" width="110" height="50" visible="true" accessible="true"/></XCUIElementTypeTabBar></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // Channels as a strip of tabs on a RecyclerView (Xiaohongshu): controls, not a
            // list's rows — where a list's stacked rows are.
            RuleExample(
                "", triggers: ["live", "food", "style"], severity: .notice,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,220][1080,330]"><node resource-id="live" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[0,220][300,330]"><node class="android.widget.TextView" text="Live" package="com.example" bounds="[40,250][260,300]"/></node><node resource-id="food" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[300,220][600,330]"><node class="android.widget.TextView" text="Food" package="com.example" bounds="[340,250][560,300]"/></node><node resource-id="style" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[600,220][900,330]"><node class="android.widget.TextView" text="Style" package="com.example" bounds="[640,250][860,300]"/></node></node></node></hierarchy>"##
            ),
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,220][1080,2200]"><node resource-id="r1" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[0,220][1080,400]"><node class="android.widget.TextView" text="Live" package="com.example" bounds="[40,250][260,300]"/></node><node resource-id="r2" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[0,400][1080,580]"><node class="android.widget.TextView" text="Food" package="com.example" bounds="[40,430][260,480]"/></node><node resource-id="r3" class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[0,580][1080,760]"><node class="android.widget.TextView" text="Style" package="com.example" bounds="[40,610][260,660]"/></node></node></node></hierarchy>"##
            ),
            // No name at all: label.missing's finding, not a second one here.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.ImageView" package="com.example" clickable="true" enabled="true" bounds="[40,400][160,520]"/></node></hierarchy>"##
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
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.severityReason]

        case conflict
        case notActionable = "not-actionable"
        case looksLikeTab = "looks-like-tab"

        public var message: String {
            switch self {
            case .conflict: "Traits conflict: ${traits}"
            case .notActionable: "Interactive ${role} is not announced as a button or link"
            case .looksLikeTab:
                "This ${role} looks like an item of a tab bar (one of ${count} side by side along the screen's bottom edge) but is announced as ${role}, not as a tab or button"
            }
        }
    }

    /// True when `frame` covers most of the screen: a layer, not a control.
    static func isFullScreen(_ frame: Rect?, in snapshot: Snapshot) -> Bool {
        guard let frame, let width = snapshot.width, let height = snapshot.height, width > 0, height > 0 else { return false }
        return frame.width * frame.height >= 0.6 * width * height
    }

    /// A list's row or a grid's card, or the layout just inside one: an item of a list,
    /// grid or recycler (a cell, or a cell's child), or one of a run of alike rows in a
    /// scrolling container (React Native's FlatList is a ScrollView of rows) — announced
    /// with its place in the list, not a button to name as one. A button alone inside a
    /// scroll view (a React Native "Continue" under a ScrollView) is a button all the same,
    /// and so are alike buttons stacked with margins between them (a form's).
    static func isListItem(_ index: Int, in snapshot: Snapshot) -> Bool {
        let elements = snapshot.elements
        if elements[index].role == .cell { return true }
        let parent = Int(elements[index].parent)
        guard parent >= 0 else { return false }
        if elements[parent].role == .cell { return true }
        // Within two levels of a scroller, with two siblings or more of its kind and width.
        let grandparent = Int(elements[parent].parent)
        guard !elements[parent].scrollAxes.isEmpty || (grandparent >= 0 && !elements[grandparent].scrollAxes.isEmpty),
            let frame = elements[index].frame
        else { return false }
        // Rows of a list touch (a FlatList's rows, a file list), cards of a grid share a
        // row: at least one alike sibling does so. A form's buttons stacked with margins
        // between them (Sign in, Register, Continue with Google) are buttons.
        var alike = 0, adjoining = false
        var sibling = elements[parent].firstChild
        var looked = 0
        while sibling >= 0, looked < 512, alike < 2 || !adjoining {
            let other = elements[Int(sibling)]
            if Int(sibling) != index, other.role == elements[index].role, other.isInteractive,
                let otherFrame = other.frame, abs(otherFrame.width - frame.width) <= 2
            {
                alike += 1
                let touches = abs(otherFrame.minY - frame.maxY) <= 2 || abs(frame.minY - otherFrame.maxY) <= 2
                let sideBySide = abs(otherFrame.minY - frame.minY) <= 2 && (otherFrame.maxX <= frame.minX + 2 || frame.maxX <= otherFrame.minX + 2)
                if touches || sideBySide { adjoining = true }
            }
            sibling = other.nextSibling
            looked += 1
        }
        return alike >= 2 && adjoining
    }

    /// The tallest strip whose items are controls rather than rows (points or dp).
    static let stripHeight = 64.0

    /// An item of a strip: a collection one row of three items or more high, at most
    /// ``stripHeight`` tall — tabs or filter chips built on a RecyclerView (Xiaohongshu's
    /// channels, Avito's shortcuts). Each is a button or a tab to its user, where a list's
    /// row, stacked with others, is an item of the list.
    static func isStripItem(_ index: Int, in snapshot: Snapshot) -> Bool {
        let elements = snapshot.elements
        let parent = Int(elements[index].parent)
        guard parent >= 0, let strip = elements[parent].frame, strip.height <= stripHeight, let frame = elements[index].frame else { return false }
        var items = 0
        var child = elements[parent].firstChild
        while child >= 0, items < 64 {
            let other = elements[Int(child)]
            // One row: every item beside the others, none above another.
            if let box = other.frame {
                guard abs(box.minY - frame.minY) <= 2 else { return false }
                items += 1
            }
            child = other.nextSibling
        }
        return items >= 3
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        // A tab bar the app draws itself, given as images or texts (iOS captures of Flutter
        // and game engines): inferred from the row's place and shape, so a warning that says
        // so; where the label says the tab's position, VoiceOver says that much (a notice).
        for (index, count) in DrawnTabBar.items(in: snapshot) where LabelText.hasName(of: index, in: snapshot) {
            let role = snapshot.elements[index].role
            let position = TabItems.isTab(index, in: snapshot)
            let reason =
                position
                ? "its label says its place among the tabs, which VoiceOver reads; the role is still \(role.name)"
                : "inferred from the layout (\(count) alike items side by side along the bottom edge): the capture does not say it takes a tap"
            context.report(
                ResultID.looksLikeTab, element: index,
                evidence: [(.role, .string(role.name)), (.count, .int(count)), (.severityReason, .string(reason))],
                severity: position ? .notice : min(context.severity, .warning))
        }
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
                // A strip's item (tabs or chips on a RecyclerView) is a control, not a list's row.
                case .cell: !(snapshot.platform == .android && isStripItem(index, in: snapshot) && !holdsControls[index])
                case .window: true
                case .container: !androidLayout
                default: element.role.isInteractiveByDefault
                }
            // A tab the reader announces as one (its position in its label, a tab bar's
            // item); an element with no name at all is label.missing's, one finding.
            if !controlRole, !isButton, !isLink, !isAdjustable, !TabItems.isTab(index, in: snapshot),
                LabelText.hasName(of: index, in: snapshot)
            {
                // TalkBack still says "double-tap to activate" for any clickable node, so on
                // Android the missing role is a notice; VoiceOver says nothing of the kind.
                let android = context.snapshot.platform == .android
                var evidence: Evidence = [(.role, .string(element.role.name)), (.traits, .array(element.traits.names.map(JSON.string)))]
                if android {
                    evidence.append((.severityReason, .string("TalkBack still says \"double-tap to activate\"; it never says \"button\"")))
                }
                context.report(ResultID.notActionable, element: index, evidence: evidence, severity: android ? .notice : context.severity)
            }
        }
    }
}
