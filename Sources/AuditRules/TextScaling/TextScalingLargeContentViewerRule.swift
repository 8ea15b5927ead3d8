/// `text-scaling.large-content-viewer` — items of a custom tab bar or toolbar that do not
/// grow with the text size must offer the Large Content Viewer (WCAG 1.4.4).
public enum TextScalingLargeContentViewerRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "text-scaling.large-content-viewer",
        aliases: ["dynamic-type.large-content-viewer"],
        title: "Bar item without Large Content Viewer",
        wcag: ["1.4.4"],
        severity: .warning,
        enabledIn: [.ios],
        help: """
            Tab bars and toolbars keep their height at large text sizes, so their items cannot grow. \
            UIKit's own bars then show the item enlarged on a long press (the Large Content Viewer); custom \
            bars must opt in (UILargeContentViewerInteraction, showsLargeContentViewer). Reported for the \
            interactive items of a container with the `tab-bar` trait that neither scale with the content \
            size (scales-with-content-size="true") nor offer the viewer (large-content-viewer="true"). \
            An error when the snapshot was taken at an accessibility size.
            """,
        examples: [
            RuleExample(
                ##"<element id="bar" role="container" traits="tab-bar"><element id="t1" role="tab" label="Home" frame="0,0,100,49"/><element id="t2" role="tab" label="Search" large-content-viewer="true" frame="100,0,100,49"/></element>"##,
                triggers: ["t1"]),
            RuleExample(
                ##"<element id="bar" role="container" traits="tab-bar"><element id="t1" role="tab" label="Home" scales-with-content-size="true" frame="0,0,100,49"/></element>"##),
            RuleExample(##"<element id="bar" role="container"><element id="t1" role="tab" label="Home" frame="0,0,100,49"/></element>"##),
            RuleExample(
                ##"<element id="bar" role="container" traits="tab-bar"><element id="g" role="container"><element id="t1" role="button" label="Compose" frame="0,0,44,44"/></element></element>"##,
                settings: ##"<settings content-size="ax3"/>"##, triggers: ["t1"]),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.contentSize, .largeContentViewer, .scalesWithContentSize]

        case noViewer = "no-viewer"

        public var message: String {
            "Bar item \"${name}\" does not grow with text size and offers no Large Content Viewer"
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let accessibilitySizeSeverity = RuleParameter<Severity>("accessibility-size-severity", default: .error, help: "severity at ax1–ax5")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        guard context.requires(.fonts, TextScalingTerms.missingFonts(on: context.snapshot.platform)) else { return }
        let snapshot = context.snapshot
        let size = snapshot.settings.effectiveContentSize
        let severity = size.isAccessibilitySize ? context[Parameter.accessibilitySizeSeverity] : context.severity
        for bar in snapshot.elements.indices where snapshot.elements[bar].traits.contains(.tabBar) && snapshot.elements[bar].isVisible {
            if context.outOfBudget() { return }
            var pending = snapshot.children(of: bar)
            while !pending.isEmpty {
                let index = pending.removeFirst()
                let element = snapshot.elements[index]
                guard element.isInteractive, element.isVisible else {
                    pending = snapshot.children(of: index) + pending
                    continue
                }
                guard element.scalesWithContentSize != true, element.largeContentViewer != true else { continue }
                context.report(
                    ResultID.noViewer, element: index,
                    evidence: [
                        (.name, .string(snapshot.node(index).accessibleName ?? snapshot.node(index).image ?? "")),
                        (.contentSize, .string(size.rawValue)),
                        (.scalesWithContentSize, element.scalesWithContentSize.map(JSON.bool) ?? .null),
                        (.largeContentViewer, element.largeContentViewer.map(JSON.bool) ?? .null),
                    ], severity: severity)
            }
        }
    }
}
