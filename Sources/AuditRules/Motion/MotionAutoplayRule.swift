/// `motion.autoplay` — WCAG 2.2.2: motion that starts by itself and lasts more than five
/// seconds needs a way to pause, stop or hide it.
public enum MotionAutoplayRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "motion.autoplay",
        title: "Auto-playing motion cannot be paused",
        wcag: ["2.2.2"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Moving, blinking or auto-updating content that starts automatically and lasts more than five \
            seconds (duration × repeats; `forever` included) must be pausable. Applies to animations \
            with autoplay="true" and to the kinds autoplay and video. Fix: add a pause control, stop \
            after five seconds, or honour Reduce Motion by not auto-playing.
            """,
        examples: [
            RuleExample(##"<element id="c" role="container"><animation kind="slide" duration="4" repeat="3" autoplay="true" pausable="false"/></element>"##, triggers: ["c"]),
            RuleExample(##"<element id="v" role="image" label="Intro"><animation kind="video" duration="30"/></element>"##, triggers: ["v"]),
            RuleExample(##"<element id="s" role="progress" label="Loading"><animation kind="spin" duration="1" repeat="forever" autoplay="true"/></element>"##, triggers: ["s"]),
            RuleExample(##"<element id="c" role="container"><animation kind="slide" duration="4" repeat="3" autoplay="true" pausable="true"/></element>"##),
            RuleExample(##"<element id="c" role="container"><animation kind="slide" duration="4" autoplay="true"/></element>"##),
            RuleExample(##"<element id="c" role="container"><animation kind="slide" autoplay="true"/></element>"##, incomplete: ["c"]),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.limit, .line, .pausable]

        case unpausable

        public var message: String {
            "${kind} plays by itself for ${seconds} s and cannot be paused"
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let maxSeconds = RuleParameter<Double>("max-seconds", default: 5, help: "longest unpausable auto-play, in seconds")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        guard context.requires(.animations, "declares no animations: motion not judged") else { return }
        let snapshot = context.snapshot
        let maximum = context[Parameter.maxSeconds]
        for animation in snapshot.animations {
            if context.outOfBudget() { return }
            let element = snapshot.elements[animation.element]
            let autoplays = animation.autoplay ?? (animation.kind == .autoplay || animation.kind == .video)
            guard autoplays, element.isVisible, animation.pausable != true else { continue }
            guard let total = animation.totalDuration else {
                context.cannotJudge("the auto-playing \(animation.kindName) animation has no duration", element: animation.element)
                continue
            }
            guard total > maximum else { continue }
            context.report(
                ResultID.unpausable, element: animation.element,
                evidence: [
                    (.kind, .string(animation.kindName)), (.seconds, total.isFinite ? .number(total) : .string("forever")),
                    (.limit, .number(maximum)), (.pausable, animation.pausable.map(JSON.bool) ?? .null),
                    (.line, .int(animation.line)),
                ])
        }
    }
}
