/// `contrast.non-text` — WCAG 1.4.11: icons and the boundaries of controls need 3:1.
public enum ContrastNonTextRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "contrast.non-text",
        title: "Non-text contrast",
        wcag: ["1.4.11"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Graphics needed to understand the screen and the visual boundaries or state of controls need a \
            contrast ratio of at least 3:1 against adjacent colours. Checked: the tint of icon-only elements \
            (an image, or a control drawing an image and no text) against the colour behind them; a control's \
            border against the colour outside it; and the track of switches, checkboxes, radios and sliders \
            against the colour outside them. From a screenshot, an icon's strokes count from 1.5% of its \
            frame, or, when nothing else stands out, 0.4% that differs clearly (a thin "⋮"); a line a few points wide (a divider, \
            a drag rail) is not a graphic. Disabled and hidden elements are exempt. Fix: darken or lighten \
            the icon, border or track.
            """,
        examples: [
            RuleExample(##"<element id="i" role="button" image="icon_close" label="Close" frame="0,0,44,44" foreground="#C7C7CC"/>"##, triggers: ["i"]),
            RuleExample(##"<element id="i" role="button" image="icon_close" label="Close" frame="0,0,44,44" foreground="#8E8E93"/>"##),
            RuleExample(##"<element id="f" role="textfield" label="Email" frame="0,0,200,44" border="#E5E5EA" background="#FFFFFF"/>"##, triggers: ["f"]),
            RuleExample(##"<element id="f" role="textfield" label="Email" frame="0,0,200,44" border="#767676"/>"##),
            RuleExample(##"<element id="s" role="switch" label="Wi-Fi" frame="0,0,51,31" background="#E9E9EA"/>"##, triggers: ["s"]),
            RuleExample(##"<element id="s" role="switch" label="Wi-Fi" frame="0,0,51,31" background="#34C759" enabled="false"/>"##),
            RuleExample(##"<element id="b" role="button" text="Pay" image="icon_pay" frame="0,0,100,44" foreground="#EEEEEE"/>"##),
            RuleExample(##"<element id="i" role="image" image="chart" label="Sales" frame="0,0,100,100"/>"##, incomplete: ["i"]),
            // From a screenshot: a pale cross drawn on white fails, a dark one passes.
            RuleExample(
                ##"<element id="x" role="button" image="icon_close" label="Close" frame="20,20,44,44"/>"##, triggers: ["x:icon"],
                screenshot: ExampleScreenshot(
                    background: .white,
                    [
                        .init(Rect(x: 30, y: 40, width: 24, height: 4), RGBA(red: 0xD1, green: 0xD1, blue: 0xD6)),
                        .init(Rect(x: 40, y: 30, width: 4, height: 24), RGBA(red: 0xD1, green: 0xD1, blue: 0xD6)),
                    ])),
            RuleExample(
                ##"<element id="x" role="button" image="icon_close" label="Close" frame="20,20,44,44"/>"##,
                screenshot: ExampleScreenshot(
                    background: .white,
                    [
                        .init(Rect(x: 30, y: 40, width: 24, height: 4), RGBA(red: 0x6E, green: 0x6E, blue: 0x73)),
                        .init(Rect(x: 40, y: 30, width: 4, height: 24), RGBA(red: 0x6E, green: 0x6E, blue: 0x73)),
                    ])),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.backgroundShare, .crop, .foregroundShare, .source]

        case icon
        case border
        case control

        public var message: String {
            switch self {
            case .icon: "Icon contrast ${ratio}:1 is below ${required}:1 (${foreground} on ${background})"
            case .border: "Control border contrast ${ratio}:1 is below ${required}:1 (${border} against ${background})"
            case .control: "Control contrast ${ratio}:1 is below ${required}:1 (${fill} against ${background})"
            }
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let ratio = RuleParameter<Double>("ratio", default: 3, help: "minimum ratio")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let required = context[Parameter.ratio]
        var unknown = 0
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden, element.isEnabled, element.role != .window else { continue }
            let isIcon =
                (element.role == .image && element.isAccessible)
                || (element.isInteractive && !snapshot.texts.isBlank(element.image) && snapshot.visibleTextRef(of: index).isAbsent)
            if element.foreground == nil, let screenshot = snapshot.screenshot,
                let frame = element.frame, isPixelIcon(index, frame: frame, snapshot: snapshot)
            {
                // No declared tint: read the icon from the screenshot.
                judgeFromPixels(index, frame: frame, screenshot: screenshot, required: required, context: &context)
                continue
            }
            let isTrackControl = [.switch, .checkbox, .radio, .slider].contains(element.role)
            let hasBorder = element.border != nil && element.isInteractive
            guard isIcon || isTrackControl || hasBorder else { continue }

            if isIcon {
                if let foreground = element.foreground, let background = element.effectiveBackground {
                    let drawn = foreground.fading(by: element.effectiveOpacity).composited(over: background)
                    let ratio = ColorMath.contrastRatio(drawn, background)
                    if ratio < required {
                        context.report(
                            ResultID.icon, element: index,
                            evidence: [
                                (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
                                (.foreground, .string(drawn.hex)), (.background, .string(background.hex)),
                                (.source, .string("declared")),
                            ])
                    }
                } else if snapshot.capabilities.contains(.declaredColors) {
                    context.cannotJudge(
                        element.foreground == nil ? "no icon tint (foreground) colour" : "no opaque background behind the icon",
                        element: index)
                } else {
                    unknown += 1
                }
            }
            if hasBorder, let border = element.border {
                if let backdrop = element.backdrop {
                    let drawn = border.fading(by: element.effectiveOpacity).composited(over: backdrop)
                    let ratio = ColorMath.contrastRatio(drawn, backdrop)
                    // A filled control whose fill already stands out needs no border.
                    let fillStandsOut = element.effectiveBackground.map { ColorMath.contrastRatio($0, backdrop) >= required } ?? false
                    if ratio < required, !fillStandsOut {
                        context.report(
                            ResultID.border, element: index,
                            evidence: [
                                (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
                                (.border, .string(drawn.hex)), (.background, .string(backdrop.hex)),
                            ])
                    }
                } else {
                    context.cannotJudge("no opaque background around the control", element: index)
                }
            }
            if isTrackControl, !hasBorder, let fill = element.background {
                if let backdrop = element.backdrop {
                    let drawn = fill.fading(by: element.effectiveOpacity).composited(over: backdrop)
                    let ratio = ColorMath.contrastRatio(drawn, backdrop)
                    if ratio < required {
                        context.report(
                            ResultID.control, element: index,
                            evidence: [
                                (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
                                (.fill, .string(drawn.hex)), (.background, .string(backdrop.hex)),
                            ])
                    }
                } else {
                    context.cannotJudge("no opaque background around the control", element: index)
                }
            }
        }
        if unknown > 0 {
            if snapshot.capabilities.contains(.colorsFromPixels) {
                context.cannotJudge("\(unknown) images larger than \(Int(maximumIconSide)) pt not judged from the screenshot (photos and illustrations)")
            } else {
                context.cannotJudge("no colours in this dialect (\(snapshot.dialect.rawValue)); \(unknown) icons not judged")
            }
        }
    }

    /// The largest side, in points, of an element whose pixels are read as an icon
    /// (``PixelInk/maximumSide``): larger images are photos and illustrations, whose contrast
    /// 1.4.11 does not ask.
    static var maximumIconSide: Double { PixelInk.maximumSide }

    /// An icon in a snapshot without declared tints: an accessible image, or an
    /// interactive leaf with no text (an image button), small enough to be an icon.
    static func isPixelIcon(_ index: Int, frame: Rect, snapshot: Snapshot) -> Bool {
        let element = snapshot.elements[index]
        guard frame.width <= maximumIconSide, frame.height <= maximumIconSide, frame.width > 0, frame.height > 0 else { return false }
        // A line a few dp wide (a divider, a drag rail) is not a graphic to read.
        if min(frame.width, frame.height) < 4, max(frame.width, frame.height) >= 4 * min(frame.width, frame.height) { return false }
        if element.role == .image { return element.isAccessible }
        return element.isInteractive && element.firstChild < 0 && snapshot.visibleTextRef(of: index).isAbsent
    }

    /// Non-text contrast from the pixels (``ScreenshotMapping/iconColors(of:)``).
    static func judgeFromPixels(
        _ index: Int, frame: Rect, screenshot: ScreenshotMapping, required: Double,
        context: inout RuleContext<ResultID>
    ) {
        let colors: IconColors
        switch screenshot.iconColors(of: frame) {
        case .success(let read): colors = read
        case .failure(let problem):
            context.cannotJudge(problem.reason, element: index)
            return
        }
        let ratio = ColorMath.contrastRatio(colors.foreground, colors.surroundings)
        guard ratio < required else { return }
        context.report(
            ResultID.icon, element: index,
            evidence: [
                (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
                (.foreground, .string(colors.foreground.hex)), (.background, .string(colors.surroundings.hex)),
                (.source, .string("screenshot")), (.crop, .string(colors.crop.description)),
                (.foregroundShare, .number((colors.foregroundShare * 1000).rounded() / 1000)),
                (.backgroundShare, .number((colors.surroundingsShare * 1000).rounded() / 1000)),
            ])
    }
}
