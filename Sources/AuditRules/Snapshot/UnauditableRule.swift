/// `snapshot.unauditable` — a capture that cannot be audited, said so rather than passed
/// as clean: no element has a frame (every one `-1,-1,0,0` or none at all), no element says
/// what it is, an iOS tree inside an Android `<hierarchy>`; and a rule set made for the
/// other platform.
public enum UnauditableRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "snapshot.unauditable",
        title: "Capture cannot be audited",
        wcag: [],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            No finding is not a pass when nothing could be judged. Reported on the snapshot: every \
            element without a usable frame (Appium writes `-1,-1,0,0` for elements it could not \
            measure, some exporters none at all), so no geometric or colour rule can run; no element \
            naming its type or role; element types of one platform in the other's document (an \
            XCUITest tree dumped into a uiautomator `<hierarchy>`); nothing but the system's UI (a dump of \
            the status bar alone, a system dialog, another app's window). Two copies of one page side by side, \
            each over most of the screen and sharing most of their ids and texts (`two-copies`, a warning on \
            the second): a capture taken mid-transition, whose findings on that page may be reported twice. \
            Nested full-screen containers are no copies, nor is a page over a different one. A rule set made for the other \
            platform (its `platform` parameter, which the platform rule sets give) is a warning: its \
            minimums and checks are that platform's. Fix: capture again after the screen has drawn, \
            with the matching tool, and audit with the platform's rule set.
            """,
        examples: [
            RuleExample(
                "", triggers: ["<snapshot>"],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="-1" y="-1" width="0" height="0"><XCUIElementTypeButton type="XCUIElementTypeButton" name="Pay" label="Pay" x="-1" y="-1" width="0" height="0" enabled="true" visible="true" accessible="true"/></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            RuleExample("", triggers: ["<snapshot>"], document: ##"<hierarchy rotation="0"><node text="Pay"/><node text="Cancel"/></hierarchy>"##),
            // A dump of the status bar alone.
            RuleExample(
                "", triggers: ["<snapshot>"], severity: .warning,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.android.systemui" bounds="[0,0][1080,63]"><node class="android.widget.TextView" text="12:30" package="com.android.systemui" bounds="[40,0][160,63]"/></node></hierarchy>"##
            ),
            RuleExample(
                "", triggers: ["<snapshot>"],
                document:
                    ##"<hierarchy rotation="0"><XCUIElementTypeApplication class="XCUIElementTypeApplication" bounds="[0,0][1170,2532]"><XCUIElementTypeButton class="XCUIElementTypeButton" text="Pay" clickable="true" bounds="[40,400][1130,560]"/></XCUIElementTypeApplication></hierarchy>"##
            ),
            RuleExample(
                ##"<element id="b" role="button" label="Pay" frame="20,700,350,50"/>"##, triggers: ["<snapshot>"],
                overrides: [Parameter.platform.set("android")], severity: .warning),
            RuleExample(##"<element id="b" role="button" label="Pay" frame="20,700,350,50"/>"##, overrides: [Parameter.platform.set("ios")]),
            RuleExample(##"<element id="b" role="button" label="Pay" frame="20,700,350,50"/>"##),
            // A page captured mid-transition: two copies of it side by side.
            RuleExample(
                ##"<element id="page" role="container" frame="0,0,390,844">\##(StackedCopies.examplePage)</element><element id="arriving" role="container" frame="0,0,390,844">\##(StackedCopies.examplePage)</element>"##,
                triggers: ["arriving"], severity: .warning),
            // Nested full-screen containers, and a page over a different one: no copies.
            RuleExample(
                ##"<element id="page" role="container" frame="0,0,390,844"><element id="inner" role="container" frame="0,0,390,844">\##(StackedCopies.examplePage)</element></element>"##
            ),
            RuleExample(
                ##"<element id="menu" role="container" frame="0,0,390,844">\##(StackedCopies.examplePage)</element><element id="cart" role="container" frame="0,0,390,844"><element id="c1" role="text" text="Your cart" frame="16,60,200,30"/><element id="c2" role="button" label="Check out" frame="16,700,358,50"/><element id="c3" role="text" text="Total" frame="16,600,100,30"/><element id="c4" role="text" text="$12.50" frame="250,600,100,30"/><element id="c5" role="button" label="Remove" frame="16,120,100,44"/></element>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case noGeometry = "no-geometry"
        case noTypes = "no-types"
        case otherPlatform = "other-platform-tree"
        case ruleSetPlatform = "rule-set-platform"
        case systemOnly = "system-only"
        case twoCopies = "two-copies"

        public var message: String {
            switch self {
            case .noGeometry: "None of the ${elements} elements has a usable frame: no geometric or colour rule could judge this capture"
            case .noTypes: "None of the ${elements} elements says what it is (no class, type or role): no rule could judge this capture"
            case .otherPlatform: "${count} of the ${elements} elements are ${found} types in a ${platform} document: the capture was read as the wrong platform"
            case .systemOnly: "All ${framed} elements with a frame are the system's (status bar, keyboard, a system dialog or another app's window): no app UI to judge"
            case .twoCopies:
                "This full-screen element repeats ${count} of the ${elements} ids and texts of ${other}: two copies of one page in one capture, taken mid-transition; findings on that page may be reported twice"
            case .ruleSetPlatform: "The rule set is made for ${expected} but the snapshot is ${platform}: its minimums and checks are the other platform's"
            }
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let platform = RuleParameter<String>(
            "platform", default: "",
            help: "the platform the rule set is made for (ios, android; empty: any)")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let count = snapshot.elements.count
        let expected = context[Parameter.platform]
        if !expected.isEmpty, snapshot.platform != .other, expected != snapshot.platform.rawValue {
            context.report(
                ResultID.ruleSetPlatform, element: nil,
                evidence: [
                    (.expected, .string(expected)), (.platform, .string(snapshot.platform.rawValue)),
                ], severity: .warning)
        }
        guard count > 0 else { return }
        var framed = 0, typed = 0, iosTypes = 0, systemFramed = 0
        for element in snapshot.elements {
            if let frame = element.frame, frame.width > 0, frame.height > 0 {
                framed += 1
                if element.isSystemUI { systemFramed += 1 }
            }
            if !element.typeName.isAbsent { typed += 1 }
            if snapshot.texts.withBytes(element.typeName, { $0.starts(with: "XCUIElementType".utf8) }) { iosTypes += 1 }
        }
        if typed == 0 {
            context.report(ResultID.noTypes, element: nil, evidence: [(.elements, .int(count))])
        } else if framed == 0 {
            context.report(ResultID.noGeometry, element: nil, evidence: [(.elements, .int(count))])
        } else if systemFramed == framed {
            context.report(ResultID.systemOnly, element: nil, evidence: [(.framed, .int(framed))], severity: .warning)
        }
        if framed > systemFramed, let copies = StackedCopies.find(in: snapshot) {
            let other = snapshot.node(copies.first).id ?? snapshot.path(of: copies.first)
            context.report(
                ResultID.twoCopies, element: copies.second,
                evidence: [(.count, .int(copies.shared)), (.elements, .int(copies.names)), (.other, .string(other))], severity: .warning)
        }
        if snapshot.platform == .android, iosTypes * 2 > count {
            context.report(
                ResultID.otherPlatform, element: nil,
                evidence: [
                    (.count, .int(iosTypes)), (.elements, .int(count)), (.found, .string("iOS (XCUIElementType…)")),
                    (.platform, .string(snapshot.platform.rawValue)),
                ])
        }
    }
}
