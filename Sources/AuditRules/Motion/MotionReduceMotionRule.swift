/// `motion.reduce-motion` — WCAG 2.3.3: with Reduce Motion on, motion must give way to a
/// reduced alternative (a fade or nothing).
public enum MotionReduceMotionRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "motion.reduce-motion",
        title: "Motion ignores Reduce Motion",
        wcag: ["2.3.3"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            When the snapshot was taken with Reduce Motion on, every animation other than a fade or \
            cross-fade must honour it. Whatever the setting, an animation marked \
            honors-reduce-motion="false" is reported (at `off-severity` when the setting is off or \
            unknown). An animation that does not say is reported incomplete when the setting is on. Fix: \
            check UIAccessibility.isReduceMotionEnabled / ANIMATOR_DURATION_SCALE and use a cross-fade \
            or no animation.
            """,
        examples: [
            // A dump declares no animations: not judged, and said so.
            RuleExample(
                "", incomplete: ["<snapshot>"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" text="Welcome" package="com.example" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            RuleExample(
                ##"<element id="h" role="image" label="Sale"><animation kind="parallax" duration="0.8" honors-reduce-motion="false"/></element>"##,
                settings: ##"<settings reduce-motion="true"/>"##, triggers: ["h"]),
            RuleExample(##"<element id="h" role="image" label="Sale"><animation kind="parallax" duration="0.8" honors-reduce-motion="false"/></element>"##, triggers: ["h"]),
            RuleExample(
                ##"<element id="h" role="image" label="Sale"><animation kind="parallax" duration="0.8" honors-reduce-motion="true"/></element>"##,
                settings: ##"<settings reduce-motion="true"/>"##),
            RuleExample(
                ##"<element id="h" role="text" text="Hi"><animation kind="fade" duration="0.3" honors-reduce-motion="false"/></element>"##,
                settings: ##"<settings reduce-motion="true"/>"##),
            RuleExample(
                ##"<element id="h" role="image" label="Sale"><animation kind="slide" duration="0.3"/></element>"##,
                settings: ##"<settings reduce-motion="true"/>"##, incomplete: ["h"]),
            RuleExample(##"<element id="h" role="image" label="Sale"><animation kind="slide" duration="0.3"/></element>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.honorsReduceMotion, .line, .reduceMotion]

        case ignoresSetting = "ignores-setting"
        case notHonoured = "not-honoured"

        public var message: String {
            switch self {
            case .ignoresSetting: "${kind} animation keeps running with Reduce Motion on"
            case .notHonoured: "${kind} animation does not honour Reduce Motion"
            }
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let offSeverity = RuleParameter<Severity>("off-severity", default: .warning, help: "severity when Reduce Motion is off")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        guard context.requires(.animations, "declares no animations: motion not judged") else { return }
        let snapshot = context.snapshot
        let reduceMotion = snapshot.settings.reduceMotion == true
        let offSeverity = context[Parameter.offSeverity]
        for animation in snapshot.animations {
            if context.outOfBudget() { return }
            let element = snapshot.elements[animation.element]
            guard element.isVisible, !animation.kind.isNonMotion, animation.distance != 0 else { continue }
            // Built only for a finding: most animations honour the setting.
            var evidence: Evidence {
                [
                    (.kind, .string(animation.kindName)), (.reduceMotion, snapshot.settings.reduceMotion.map(JSON.bool) ?? .null),
                    (.honorsReduceMotion, animation.honorsReduceMotion.map(JSON.bool) ?? .null),
                    (.line, .int(animation.line)),
                ]
            }
            switch (reduceMotion, animation.honorsReduceMotion) {
            case (true, false?):
                context.report(ResultID.ignoresSetting, element: animation.element, evidence: evidence)
            case (true, nil):
                context.cannotJudge(
                    "the \(animation.kindName) animation does not say whether it honours Reduce Motion",
                    element: animation.element)
            case (false, false?):
                context.report(ResultID.notHonoured, element: animation.element, evidence: evidence, severity: offSeverity)
            default:
                break
            }
        }
    }
}
