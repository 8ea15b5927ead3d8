/// `contrast.text` — WCAG 1.4.3 (and 1.4.6 with the AAA thresholds of `wcag22-aaa`).
public enum ContrastTextRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "contrast.text",
        title: "Text contrast",
        wcag: ["1.4.3"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Text must stand out from what is behind it: a WCAG contrast ratio of at least 4.5:1, or 3:1 for \
            large text — WCAG's 18 pt, or 14 pt bold, which is 24, or 18.66 bold, in the platform's unit (iOS \
            points, Android dp, CSS px: each the CSS pixel of its platform; ATF's more lenient convention, 18 \
            and 14 in the platform's unit, is `large-size: 18`, `large-bold-size: 14`). The size and threshold \
            used are in the evidence and the message. The foreground is composited with its alpha and the element's \
            opacity over the effective background (ancestor backgrounds composited); ratios are compared \
            unrounded, so 4.499:1 fails 4.5:1. Disabled and hidden text is exempt. The APCA Lc value is \
            reported beside the ratio. Fix: darken the text or lighten the background (or the reverse).
            """,
        examples: [
            RuleExample(##"<element id="t" role="text" text="Pay" foreground="#C7C7CC" font-size="17"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Pay" foreground="#777777" font-size="17"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Pay" foreground="#767676" font-size="17"/>"##),
            RuleExample(##"<element id="t" role="text" text="Big" foreground="#949494" font-size="24"/>"##),
            RuleExample(##"<element id="t" role="text" text="Title" foreground="#949494" font-size="20"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Bold" foreground="#949494" font-size="19" font-weight="bold"/>"##),
            RuleExample(##"<element id="t" role="text" text="Semi" foreground="#949494" font-size="19" font-weight="semibold"/>"##, triggers: ["t"]),
            RuleExample(
                ##"<element id="t" role="text" text="ATF" foreground="#949494" font-size="18"/>"##,
                overrides: [Parameter.largeSize.set(18), Parameter.largeBoldSize.set(14)]),
            RuleExample(##"<element id="t" role="text" text="Faded" foreground="#000000B3" font-size="17"/>"##),
            RuleExample(##"<element id="t" role="text" text="Ghost" foreground="#00000040" font-size="17"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Dim" foreground="#000000" opacity="0.3" font-size="17"/>"##, triggers: ["t"]),
            RuleExample(
                ##"<element id="card" role="container" background="#1C1C1E"><element id="t" role="text" text="Dark" foreground="#3A3A3C" font-size="17"/></element>"##,
                triggers: ["t"]),
            RuleExample(##"<element id="t" role="button" text="Off" enabled="false" foreground="#C7C7CC" font-size="17"/>"##),
            RuleExample(##"<element id="t" role="text" text="Gone" hidden="true" foreground="#C7C7CC" font-size="17"/>"##),
            RuleExample(##"<element id="t" role="text" text="No colour" font-size="17"/>"##, incomplete: ["t"]),
            RuleExample(
                "", incomplete: ["t"],
                document: ##"<snapshot version="1"><element id="w" role="window"><element id="t" role="text" text="x" foreground="#000000"/></element></snapshot>"##),
            RuleExample(
                ##"<element id="t" role="text" text="AAA" foreground="#767676" font-size="17"/>"##, triggers: ["t"],
                overrides: [Parameter.normalRatio.set(7), Parameter.largeRatio.set(4.5)]),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [
            .apcaLc, .attribute, .backgroundShare, .crop, .declaredForeground, .density, .estimatedFontSize, .fontSize, .fontWeight, .foregroundShare, .largeText, .severityReason,
            .source,
        ]

        case lowContrast = "low-contrast"

        public var message: String {
            "Text contrast ${ratio}:1 is below ${required}:1 (${foreground} on ${background}; ${text-size})"
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let normalRatio = RuleParameter<Double>("normal-ratio", default: 4.5, help: "minimum ratio for normal text")
        public let largeRatio = RuleParameter<Double>("large-ratio", default: 3, help: "minimum ratio for large text")
        public let largeSize = RuleParameter<Double>(
            "large-size", default: 24, help: "size at which text is large, in the platform's unit (WCAG's 18 pt = 24; ATF: 18)")
        public let largeBoldSize = RuleParameter<Double>(
            "large-bold-size", default: 18.66, help: "size at which bold text is large, in the platform's unit (WCAG's 14 pt = 18.66; ATF: 14)")
        public let boldWeight = RuleParameter<Double>("bold-weight", default: 700, help: "font weight that counts as bold")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let normalRatio = context[Parameter.normalRatio], largeRatio = context[Parameter.largeRatio]
        let largeSize = context[Parameter.largeSize], largeBoldSize = context[Parameter.largeBoldSize]
        let boldWeight = context[Parameter.boldWeight]
        var unknownColours = 0
        func isText(_ index: Int) -> Bool {
            let element = snapshot.elements[index]
            return element.isVisible && !element.isHidden && element.isEnabled
                && !snapshot.visibleTextRef(of: index).isAbsent && element.role != .window
        }
        // Text a dump gives only as a content description (Flutter exposes every visible
        // text so) is drawn text all the same: judged where the pixels show a line of glyphs.
        func isDescribedText(_ index: Int) -> Bool {
            guard snapshot.capabilities.contains(.colorsFromPixels) else { return false }
            let element = snapshot.elements[index]
            guard element.isVisible, !element.isHidden, element.isEnabled, !element.isSystemUI, element.firstChild < 0,
                snapshot.visibleTextRef(of: index).isAbsent, !snapshot.texts.isBlank(element.label)
            else { return false }
            switch element.role {
            case .other, .container, .button, .tab, .link, .cell: break
            default: return false
            }
            let letters = (snapshot.texts.string(element.label) ?? "").unicodeScalars.filter { $0.properties.isAlphabetic }.count
            return letters >= 2
        }
        // With a screenshot, the pixels of every text without declared colours are read
        // first, on every core; findings are then reported in document order.
        var readings: [Int: PixelReading] = [:]
        if let screenshot = snapshot.screenshot {
            let paintOrder = PaintOrder(snapshot)
            let unknown = snapshot.elements.indices.filter {
                (isText($0) || isDescribedText($0)) && (snapshot.elements[$0].foreground == nil || snapshot.elements[$0].effectiveBackground == nil)
            }
            readings = PixelReadings.read(unknown, budget: context.budget) { index in
                reading(index, snapshot: snapshot, screenshot: screenshot, paintOrder: paintOrder)
            }
        }
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            guard isText(index) else {
                if let reading = readings[index], isDescribedText(index) {
                    judgeDescribedText(index, reading, normalRatio, largeRatio, largeSize, largeBoldSize, boldWeight, &context)
                }
                continue
            }
            let element = snapshot.elements[index]
            guard let foreground = element.foreground, let background = element.effectiveBackground else {
                if snapshot.capabilities.contains(.colorsFromPixels) {
                    judgeFromPixels(
                        index, readings[index], ratios: (normalRatio, largeRatio),
                        sizes: (largeSize, largeBoldSize, boldWeight), context: &context)
                } else if snapshot.capabilities.contains(.declaredColors) {
                    context.cannotJudge(
                        element.foreground == nil ? "no foreground colour" : "no opaque background behind the text",
                        element: index)
                } else {
                    unknownColours += 1
                }
                continue
            }
            let drawn = foreground.fading(by: element.effectiveOpacity).composited(over: background)
            let ratio = ColorMath.contrastRatio(drawn, background)
            let size = element.fontSize
            let weight = Double(element.fontWeight ?? 400)
            let large = size.map { $0 >= largeSize || ($0 >= largeBoldSize && weight >= boldWeight) } ?? false
            let required = large ? largeRatio : normalRatio
            guard ratio < required else { continue }
            var evidence: Evidence = [
                (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
                (.foreground, .string(drawn.hex)), (.background, .string(background.hex)),
                (.source, .string("declared")),
            ]
            if drawn != foreground { evidence.append((.declaredForeground, .string(foreground.hex))) }
            evidence.append((.fontSize, size.map(JSON.number) ?? .null))
            evidence.append((.fontWeight, .int(Int(weight))))
            evidence.append((.largeText, .bool(large)))
            let unit = snapshot.platform.sizeUnit, bold = weight >= boldWeight
            let declared = size.map { "\($0.formattedForReport) \(unit)\(bold ? " bold" : "")" } ?? "size not declared"
            evidence.append(
                (.textSize, .string("\(large ? "large" : "not large"): \(declared), \(thresholds(largeSize, largeBoldSize, unit: unit))")))
            evidence.append((.apcaLc, .number((ColorMath.apcaContrast(text: drawn, background: background) * 10).rounded() / 10)))
            context.report(ResultID.lowContrast, element: index, evidence: evidence)
        }
        if unknownColours > 0 {
            context.cannotJudge("no colours in this dialect (\(snapshot.dialect.rawValue)); \(unknownColours) text elements not judged")
        }
    }

    /// A content description drawn as text: judged as text when its pixels read and their
    /// ink looks like a line of glyphs (``TextInk/looksLikeText``), else passed over in
    /// silence — an icon with a description is `contrast.non-text`'s.
    static func judgeDescribedText(
        _ index: Int, _ reading: PixelReading, _ normalRatio: Double, _ largeRatio: Double, _ largeSize: Double, _ largeBoldSize: Double,
        _ boldWeight: Double, _ context: inout RuleContext<ResultID>
    ) {
        guard case .colors(let colors, let frame) = reading, let mapping = context.snapshot.screenshot else { return }
        let label = context.snapshot.texts.string(context.snapshot.elements[index].label) ?? ""
        func glyphs(_ colors: TextColors) -> TextInk? {
            guard
                let ink = TextInk.measure(
                    mapping.screenshot, crop: colors.crop, foreground: colors.foreground, background: colors.background,
                    script: .of(label), glyphLine: true),
                ink.looksLikeText
            else { return nil }
            return ink
        }
        var chosen: (PixelReading, TextInk)?
        // A label under (or beside) its icon in another colour — a tab — is read on its own
        // band of rows: the whole crop's contrast is the icon's.
        let bands = TextInk.bands(mapping.screenshot, crop: colors.crop, background: colors.background)
        if bands.count >= 2 {
            let tallest = bands.map(\.count).max() ?? 0
            for band in bands.reversed() where band.count * 4 >= tallest {
                let ppp = mapping.pixelsPerPoint
                let part = Rect(x: frame.minX, y: Double(band.lowerBound - 1) / ppp, width: frame.width, height: Double(band.count + 2) / ppp)
                guard case .success(let partColors) = mapping.textColors(of: part), let ink = glyphs(partColors) else { continue }
                chosen = (.colors(partColors, frame: part), ink)
                break
            }
        }
        if chosen == nil, let ink = glyphs(colors) { chosen = (reading, ink) }
        guard let (read, ink) = chosen else { return }
        judgeFromPixels(
            index, read, ratios: (normalRatio, largeRatio), sizes: (largeSize, largeBoldSize, boldWeight), context: &context,
            describedInk: ink)
    }

    /// The large-text thresholds as the evidence says them ("large from 24 dp, or 18.66 dp bold").
    static func thresholds(_ large: Double, _ largeBold: Double, unit: String) -> String {
        "large from \(large.formattedForReport) \(unit), or \(largeBold.formattedForReport) \(unit) bold"
    }

    /// What the pixels of one text element say, read apart from the rule's context so
    /// that many can be read at once.
    enum PixelReading: Sendable {
        case colors(TextColors, frame: Rect)
        case cannotJudge(String)
    }

    static func reading(_ index: Int, snapshot: Snapshot, screenshot: ScreenshotMapping, paintOrder: PaintOrder) -> PixelReading {
        guard let frame = snapshot.elements[index].frame else { return .cannotJudge("no frame to find the text in the screenshot") }
        if let cover = paintOrder.cover(of: index, frame: frame) {
            return .cannotJudge("covered in the screenshot by \(snapshot.node(cover).id ?? snapshot.path(of: cover)), painted above it")
        }
        switch screenshot.textColors(of: frame) {
        case .success(let colors): return .colors(colors, frame: frame)
        case .failure(let problem): return .cannotJudge(problem.reason)
        }
    }

    /// Contrast from the screenshot's pixels (``ScreenshotMapping/textColors(of:)``). The
    /// size of text in a dump is unknown unless declared: below the large-text ratio (3:1)
    /// fails whatever the size; between it and the normal ratio is a `notice` saying so.
    static func judgeFromPixels(
        _ index: Int, _ reading: PixelReading?,
        ratios: (normal: Double, large: Double), sizes: (large: Double, largeBold: Double, bold: Double),
        context: inout RuleContext<ResultID>, describedInk: TextInk? = nil
    ) {
        let element = context.snapshot.elements[index]
        let colors: TextColors, frame: Rect
        switch reading {
        case .colors(let read, let readFrame)?:
            colors = read
            frame = readFrame
        case .cannotJudge(let reason)?:
            context.cannotJudge(reason, element: index)
            return
        case nil:
            // Not read: the audit's budget ran out first (reported as such by the engine).
            return
        }
        let ratio = ColorMath.contrastRatio(colors.foreground, colors.background)
        guard ratio < ratios.normal else { return }
        // A dump rarely declares the font size; a frame lower than the large-bold size (14 pt)
        // cannot hold large text. In a taller frame the glyphs' ink says how big the text is
        // drawn (``TextInk``); only where it cannot decide does the size stay unknown.
        var ink: TextInk? = describedInk
        let large: Bool? =
            element.fontSize.map { size in
                size >= sizes.large || (size >= sizes.largeBold && Double(element.fontWeight ?? 400) >= sizes.bold)
            }
            ?? {
                if frame.height < sizes.largeBold { return false }
                guard let mapping = context.snapshot.screenshot else { return nil }
                if let ink { return ink.isLarge(pixelsPerPoint: mapping.pixelsPerPoint, largeSize: sizes.large, largeBoldSize: sizes.largeBold) }
                let text = context.snapshot.texts.string(context.snapshot.visibleTextRef(of: index)) ?? ""
                ink = TextInk.measure(
                    mapping.screenshot, crop: colors.crop, foreground: colors.foreground, background: colors.background, script: .of(text))
                return ink?.isLarge(pixelsPerPoint: mapping.pixelsPerPoint, largeSize: sizes.large, largeBoldSize: sizes.largeBold)
            }()
        let required = large == true ? ratios.large : ratios.normal
        guard ratio < required else { return }
        // Size unknown and the ratio passes for large text: it may be large.
        let severity: Severity? = large == nil && ratio >= ratios.large ? .notice : nil
        var evidence: Evidence = [
            (.ratio, .number(ColorMath.displayed(ratio))), (.required, .number(required)),
            (.foreground, .string(colors.foreground.hex)), (.background, .string(colors.background.hex)),
            (.source, .string("screenshot")), (.crop, .string(colors.crop.description)),
            (.foregroundShare, .number((colors.foregroundShare * 1000).rounded() / 1000)),
            (.backgroundShare, .number((colors.backgroundShare * 1000).rounded() / 1000)),
            (.fontSize, element.fontSize.map(JSON.number) ?? .null),
            (.largeText, large.map(JSON.bool) ?? .null),
        ]
        let pixelsPerPoint = context.snapshot.screenshot?.pixelsPerPoint ?? 1
        let unit = context.snapshot.platform.sizeUnit
        let threshold = thresholds(sizes.large, sizes.largeBold, unit: unit)
        if let size = element.fontSize {
            let bold = Double(element.fontWeight ?? 400) >= sizes.bold
            evidence.append(
                (.textSize, .string("\(large == true ? "large" : "not large"): \(size.formattedForReport) \(unit)\(bold ? " bold" : ""), \(threshold)")))
        } else if let ink {
            let line = (Double(ink.lineHeight) / pixelsPerPoint * 10).rounded() / 10
            let estimate = ink.estimatedSize(pixelsPerPoint: pixelsPerPoint).rounded()
            let face = ink.looksBold ? "bold" : "regular"
            let script = ink.script == .ideographic ? " ideographs," : ""
            let basis =
                "its glyphs' ink:\(script) one line \(ink.lineHeight) px (\(line.formattedForReport) \(unit)) high, \(face) stems of \(ink.stroke) px"
            evidence.append((.estimatedFontSize, .number(estimate)))
            // The size in points is the ink's pixels over the screen's scale: say what set it.
            let scaleBasis = context.snapshot.scaleBasis ?? "the screenshot's width over the screen's"
            evidence.append((.density, .string("\(pixelsPerPoint.formattedForReport) px per \(unit), from \(scaleBasis)")))
            switch large {
            case true?: evidence.append((.textSize, .string("large: about \(estimate.formattedForReport) \(unit) from \(basis); \(threshold)")))
            case false?: evidence.append((.textSize, .string("not large: about \(estimate.formattedForReport) \(unit) from \(basis); \(threshold)")))
            case nil:
                evidence.append(
                    (
                        .textSize,
                        .string(
                            "undecided: about \(estimate.formattedForReport) \(unit) from \(basis), between normal and large (\(threshold)); \(ratios.large.formattedForReport):1 applies if large, \(ratios.normal.formattedForReport):1 if not"
                        )
                    ))
            }
        } else if large == false {
            evidence.append(
                (
                    .textSize,
                    .string("not large: the frame is \(frame.height.formattedForReport) \(unit) high, under \(sizes.largeBold.formattedForReport) \(unit) (\(threshold))")
                ))
        } else {
            evidence.append(
                (
                    .textSize,
                    .string(
                        "unknown: \(ratios.large.formattedForReport):1 applies if large (\(threshold); about \((frame.height / 1.2).rounded().formattedForReport) \(unit) or more, from the frame), \(ratios.normal.formattedForReport):1 if not"
                    )
                ))
        }
        // The text was read from the content description: it is drawn, not exposed as text.
        if describedInk != nil { evidence.append((.attribute, .string("content-desc"))) }
        evidence.append((.apcaLc, .number((ColorMath.apcaContrast(text: colors.foreground, background: colors.background) * 10).rounded() / 10)))
        if severity == .notice {
            evidence.append(
                (.severityReason, .string("the text's size is undecided: \(ratios.large.formattedForReport):1, which it meets, applies if it is large")))
        }
        context.report(ResultID.lowContrast, element: index, evidence: evidence, severity: severity)
    }
}
