/// `target-size` — WCAG 2.5.8 (24 × 24 with its spacing exception) and the platform
/// minimums (Apple 44 pt, Material 48 dp; WCAG 2.5.5 asks 44).
public enum TargetSizeRule: Rule {
    public static let description = RuleDescription(
        id: "target-size",
        title: "Touch target size",
        wcag: ["2.5.8"],
        severity: .error,
        help: """
            Targets must be at least 24 × 24 points (WCAG 2.5.8), unless a 24-point circle centred on the \
            target does not intersect another target or another undersized target's circle. Platforms ask \
            more: 44 × 44 pt on iOS (Human Interface Guidelines), 48 × 48 dp on Android (Material); rule \
            sets give that as `platform-minimum`, reported at `platform-severity` and citing the guideline, \
            not a WCAG criterion. Keys of the system keyboard, system bars and scroll indicators are the \
            system's, not the app's: left out, and counted. The `hit-frame` wins \
            over the `frame`. Only interactive, visible, enabled elements count; links inside text are \
            exempt. Fix: enlarge the target or its hit area.
            """,
        parameters: [Parameter.minimum, Parameter.platformMinimum, Parameter.platformSeverity, Parameter.spacingException],
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="a" role="button" label="Back" frame="10,10,20,20"/><element id="b" role="button" label="Close" frame="32,10,20,20"/>"##, triggers: ["a", "b"]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20"/>"##),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20" hit-frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,24,24"/>"##),
            RuleExample(##"<element id="a" role="button" label="A" frame="100,100,16,16"/><element id="b" role="button" label="B" frame="300,300,16,16"/>"##),
            RuleExample(##"<element id="a" role="button" label="A" frame="100,100,16,16"/><element id="b" role="button" label="B" frame="118,100,16,16"/>"##, triggers: ["a", "b"]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20"/>"##, triggers: ["b"], parameters: ["spacing-exception": .bool(false)]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,32,32"/>"##, triggers: ["b"], parameters: ["platform-minimum": .number(44)]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20" enabled="false"/>"##),
            RuleExample(##"<element id="t" role="text" text="Read the terms"><element id="l" role="link" text="terms" frame="60,10,30,14"/></element>"##),
            RuleExample(##"<element id="x" role="text" text="Not a target" frame="10,10,10,10"/>"##),
            // The system keyboard's keys are the system's: left out (and counted).
            RuleExample("", parameters: ["platform-minimum": .number(44)], document: ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeKeyboard type="XCUIElementTypeKeyboard" x="0" y="500" width="390" height="344"><XCUIElementTypeKey type="XCUIElementTypeKey" name="q" label="q" x="3" y="510" width="20" height="40" enabled="true" visible="true" accessible="true"/></XCUIElementTypeKeyboard></XCUIElementTypeApplication></AppiumAUT>"##),
            // Android: a disabled container does not disable its children (each states its own).
            RuleExample("", triggers: ["close"], parameters: ["platform-minimum": .number(48)], document: ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" enabled="false" bounds="[0,0][1080,2400]"><node resource-id="close" class="android.widget.ImageButton" content-desc="Close" package="com.example" clickable="true" enabled="true" bounds="[10,10][50,50]"/></node></hierarchy>"##),
            // Android: the IME's keys are another package's window.
            RuleExample("", parameters: ["platform-minimum": .number(48)], document: ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" bounds="[0,1600][1080,2400]"><node resource-id="key_q" class="android.widget.Button" content-desc="q" package="com.google.android.inputmethod.latin" clickable="true" enabled="true" bounds="[10,1700][50,1760]"/></node></hierarchy>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case tooSmall = "too-small"
        case belowPlatformMinimum = "below-platform-minimum"

        public var message: String {
            switch self {
            case .tooSmall: "Target ${width}×${height} pt is smaller than ${required}×${required} pt (WCAG 2.5.8)"
            case .belowPlatformMinimum: "Target ${width}×${height} pt is smaller than the platform's ${required}×${required} pt"
            }
        }
    }

    /// The parameters rule sets may give this rule, with their defaults.
    public enum Parameter {
        public static let minimum = RuleParameter<Double>("minimum", default: 24, help: "WCAG 2.5.8 minimum in points")
        public static let platformMinimum = RuleParameter<Double>("platform-minimum", default: 0, help: "platform minimum in points (0: none)")
        public static let platformSeverity = RuleParameter<Severity>("platform-severity", default: .warning, help: "severity below the platform minimum")
        public static let spacingException = RuleParameter<Bool>("spacing-exception", default: true, help: "apply 2.5.8's spacing exception")
    }

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        let minimum = context[Parameter.minimum]
        let platformMinimum = context[Parameter.platformMinimum]
        let platformSeverity = context[Parameter.platformSeverity]
        let spacingException = context[Parameter.spacingException]
        let targets = Targets.all(in: snapshot)
        let undersized = Set(targets.filter { $0.frame.width < minimum || $0.frame.height < minimum }.map(\.index))
        // Index of all targets, for the spacing exception; only needed when something is small.
        let needsIndex = !undersized.isEmpty && spacingException
        let ends = needsIndex ? Targets.subtreeEnds(in: snapshot) : []
        let index = needsIndex ? Targets.index(targets, ends: ends) : RectIndex([])

        for target in targets {
            if context.outOfBudget() { return }
            let frame = target.frame
            let undersizedTarget = frame.width < minimum || frame.height < minimum
            let belowPlatform = platformMinimum > 0 && (frame.width < platformMinimum || frame.height < platformMinimum)
            guard undersizedTarget || belowPlatform else { continue }
            let source = snapshot.elements[target.index].hitFrame != nil ? "hit-frame" : "frame"
            if undersizedTarget {
                var evidence: Evidence = [
                    ("width", .number(frame.width)), ("height", .number(frame.height)),
                    ("required", .number(minimum)), ("source", .string(source)),
                ]
                let clear = spacingException && spacingIsClear(target.index, frame, minimum: minimum, index: index, ends: ends,
                                                                undersized: undersized, snapshot: snapshot, evidence: &evidence)
                if !clear {
                    context.report(ResultID.tooSmall, element: target.index, evidence: evidence)
                    continue
                }
            }
            if belowPlatform {
                // A platform guideline, not a WCAG criterion (2.5.5's 44 CSS px is AAA and
                // another unit): the finding names the guideline.
                context.report(ResultID.belowPlatformMinimum, element: target.index, evidence: [
                    ("width", .number(frame.width)), ("height", .number(frame.height)),
                    ("required", .number(platformMinimum)), ("source", .string(source)),
                    ("guideline", .string(guideline(for: snapshot.platform))),
                ], severity: platformSeverity, wcag: [])
            }
        }
        let system = Targets.systemUICount(in: snapshot)
        if system > 0 {
            context.cannotJudge("\(system) targets of the system's UI (keyboard keys, system bars, scroll indicators) left out: not the app's")
        }
    }

    /// The guideline a platform minimum comes from.
    static func guideline(for platform: Platform) -> String {
        switch platform {
        case .ios: "Apple Human Interface Guidelines (44 × 44 pt)"
        case .android: "Material Design (48 × 48 dp)"
        case .web, .other: "the platform's minimum"
        }
    }

    /// WCAG 2.5.8's exception: a circle of diameter `minimum` centred on the target's
    /// bounding box intersects no other target and no other undersized target's circle.
    /// Nested targets (a control inside an interactive cell) are one target for this
    /// purpose: only earlier non-ancestors and later non-descendants are searched.
    static func spacingIsClear(_ position: Int, _ frame: Rect, minimum: Double, index: RectIndex, ends: [Int], undersized: Set<Int>,
                               snapshot: Snapshot, evidence: inout Evidence) -> Bool {
        let radius = minimum / 2
        let center = (x: frame.midX, y: frame.midY)
        let reach = Rect(x: center.x - minimum, y: center.y - minimum, width: minimum * 2, height: minimum * 2)
        let end = ends[position]
        let conflict = index.first(meeting: reach, branch: { summary in summary.minEnd <= position || summary.maxIndex >= end }) { other in
            guard other.index != position, other.end <= position || other.index >= end else { return false }
            let otherFrame = other.rect
            let nearestX = min(max(center.x, otherFrame.minX), otherFrame.maxX)
            let nearestY = min(max(center.y, otherFrame.minY), otherFrame.maxY)
            let distanceToRect = ((nearestX - center.x) * (nearestX - center.x) + (nearestY - center.y) * (nearestY - center.y)).squareRoot()
            if distanceToRect < radius { return true }
            guard undersized.contains(other.index) else { return false }
            let dx = otherFrame.midX - center.x, dy = otherFrame.midY - center.y
            return (dx * dx + dy * dy).squareRoot() < minimum
        }
        guard let conflict else { return true }
        evidence.append(("conflicts-with", .optional(snapshot.node(conflict.index).id ?? snapshot.path(of: conflict.index))))
        return false
    }
}
