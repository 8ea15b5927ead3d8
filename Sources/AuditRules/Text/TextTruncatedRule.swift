/// `text.truncated` — text cut off on screen: the line the screenshot shows ends in an
/// ellipsis where the element's text goes on ("Conversations wi…"). Read from the
/// screenshot's pixels (a drawn ellipsis, in any script) and, with OCR, by its words
/// (docs/ocr.md).
public enum TextTruncatedRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "text.truncated",
        title: "Text cut off on screen",
        wcag: ["1.4.4", "1.4.10"],
        severity: .notice,
        enabledIn: [],
        help: """
            A label drawn "Conversations wi…" while the element's text goes on hides the rest from sighted \
            users — and at large text sizes from most of them (Apple's audit sees UIKit's clipped text only \
            at run time). Judged on the screenshot, sent with the snapshot: an ellipsis drawn at the end of a \
            text's last line — three small dots of its colour, alike, level and evenly spaced after its glyphs, \
            near its element's right edge, on the baseline or at mid-height (CJK) — where the element's own \
            text does not end in one (`ellipsis`: found in the pixels, so text in any script is judged, with or \
            without OCR). With OCR (`?ocr=1`, `auditctl audit --ocr`), also: a line read ending in an ellipsis (… or ...) over an element whose \
            text starts with what the line shows and is longer, or an element's lines read together \
            (wrapped text) ending in one (`truncated`); text clipped by its element with no ellipsis at all — \
            the lines show the start of the element's text, the last runs to its right edge, and glyph \
            strokes cross that edge with three characters or more missing, or stop flush with it (ink in its \
            last three columns) with one or more missing (`cut`, worse: nothing tells the reader text is missing). Elements cut \
            by a scroller or the screen's edge are not judged (they scroll into view). A notice at the default text size (a list's \
            titles ellipsized by design), a warning when the capture declares a larger text size \
            (`content-size` above `l`: the user enlarged the text and lost it, WCAG 1.4.4). Where the \
            capture declares truncation \
            itself (a native `truncated="true"`), `text-scaling.truncated` reports it from the tree; this \
            rule sees what the pixels show, on any capture. Fix: let the text wrap or grow (no fixed \
            height, `numberOfLines = 0`, `maxLines` unset), or shorten it.
            """,
        examples: [
            RuleExample(
                ##"<element id="title" role="text" text="Conversations with Alice and Bob" frame="16,100,160,22"/>"##, triggers: ["title"],
                screenshot: TextUnexposedRule.screen([.init("Conversations wi…", Rect(x: 16, y: 100, width: 158, height: 22))])),
            RuleExample(
                ##"<element id="title" role="text" text="Conversations with Alice and Bob" frame="16,100,160,22"/>"##, triggers: ["title"],
                screenshot: TextUnexposedRule.screen([.init("Conversations with Al...", Rect(x: 16, y: 100, width: 158, height: 22))])),
            // Captured with the text enlarged: the user lost the text to their setting, a warning.
            RuleExample(
                ##"<element id="title" role="text" text="Conversations with Alice and Bob" frame="16,100,160,22"/>"##,
                settings: ##"<settings content-size="ax2"/>"##, triggers: ["title"], severity: .warning,
                screenshot: TextUnexposedRule.screen([.init("Conversations wi…", Rect(x: 16, y: 100, width: 158, height: 22))])),
            // Wrapped over two lines, the second ellipsized: the element's start and more.
            RuleExample(
                ##"<element id="title" role="text" text="Trending songs that everyone listens to and will make you dance" frame="16,100,220,44"/>"##,
                triggers: ["title"],
                screenshot: TextUnexposedRule.screen([
                    .init("Trending songs that everyone", Rect(x: 16, y: 100, width: 210, height: 20)),
                    .init("listens to and will ma...", Rect(x: 16, y: 122, width: 200, height: 20)),
                ])),
            // Clipped by its own frame with no ellipsis: the start of the text, and a glyph's
            // strokes crossing the element's right edge.
            RuleExample(
                ##"<element id="title" role="text" text="Notifications and sounds" frame="16,100,120,22"/>"##, triggers: ["title"],
                screenshot: ExampleScreenshot(
                    background: .white, [.init(Rect(x: 133, y: 104, width: 3, height: 14), .black)],
                    read: [.init("Notifications a", Rect(x: 16, y: 100, width: 120, height: 22))])),
            // Clipped between two glyphs: the last one stops flush with the edge, nothing
            // crosses it, and one letter is missing.
            RuleExample(
                ##"<element id="title" role="text" text="Notifications" frame="16,100,120,22"/>"##, triggers: ["title"],
                screenshot: ExampleScreenshot(
                    background: .white, [.init(Rect(x: 133, y: 104, width: 2.5, height: 14), .black)],
                    read: [.init("Notification", Rect(x: 16, y: 100, width: 118, height: 22))])),
            // The same words ending short of the edge: a label wrapping onto a line OCR
            // missed, not one cut.
            RuleExample(
                ##"<element id="title" role="text" text="Notifications and sounds" frame="16,100,160,22"/>"##,
                screenshot: ExampleScreenshot(
                    background: .white, [.init(Rect(x: 100, y: 104, width: 3, height: 14), .black)],
                    read: [.init("Notifications a", Rect(x: 16, y: 100, width: 90, height: 22))])),
            // Reaching the edge with nothing drawn across it: the text ends there.
            RuleExample(
                ##"<element id="title" role="text" text="Notifications and sounds" frame="16,100,120,22"/>"##,
                screenshot: TextUnexposedRule.screen([.init("Notifications a", Rect(x: 16, y: 100, width: 120, height: 22))])),
            // Shown whole.
            RuleExample(
                ##"<element id="title" role="text" text="Conversations" frame="16,100,160,22"/>"##,
                screenshot: TextUnexposedRule.screen([.init("Conversations", Rect(x: 16, y: 100, width: 120, height: 22))])),
            // The app's own text ends in an ellipsis: nothing is cut.
            RuleExample(
                ##"<element id="more" role="text" text="Loading…" frame="16,100,160,22"/>"##,
                screenshot: TextUnexposedRule.screen([.init("Loading…", Rect(x: 16, y: 100, width: 80, height: 22))])),
            RuleExample(
                ##"<element id="title" role="text" text="Conversations with Alice and Bob" frame="16,100,160,22"/>"##, incomplete: ["<snapshot>"]),
        ])

    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.confidence, .crop, .severityReason, .source]

        case truncated
        case cut
        case ellipsis

        public var message: String {
            switch self {
            case .ellipsis: "\"${expected}\" is drawn ending in an ellipsis: the text is cut off"
            case .truncated: "The screen shows \"${text}\" of \"${expected}\": the text is cut off"
            case .cut: "The screen shows \"${text}\" of \"${expected}\", its last letters cut at the element's edge with no ellipsis"
            }
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let enlarged = snapshot.settings.effectiveContentSize > .l
        var ellipsized = Set<Int>()
        // OCR's reading first, where OCR ran (or the snapshot has no screenshot, which
        // OCRInput reports): what the line shows is evidence the pixels alone do not give.
        if !snapshot.capabilities.contains(.colorsFromPixels) || snapshot.recognizedText != nil {
            readByOCR(&context, enlarged: enlarged, ellipsized: &ellipsized)
        }
        // Then the pixels: an ellipsis drawn in any script, on every text OCR did not
        // already find cut off. Without OCR, this is all the rule judges (the daemon runs
        // it whenever a screenshot is sent).
        guard let mapping = snapshot.screenshot else { return }
        for index in snapshot.elements.indices where !ellipsized.contains(index) {
            if context.outOfBudget() { return }
            guard let ellipsis = drawnEllipsis(index, snapshot: snapshot, mapping: mapping),
                let full = snapshot.texts.string(snapshot.visibleTextRef(of: index))
            else { continue }
            context.report(
                .ellipsis, element: index,
                evidence: [
                    (.expected, .string(full)), (.crop, .string(ellipsis.box.description)), (.source, .string("screenshot")),
                    (.severityReason, .string(severityReason(enlarged))),
                ],
                severity: enlarged ? .warning : .notice)
        }
    }

    /// OCR's lines ending in an ellipsis over a longer text, and texts cut without one
    /// (``TextCut``); the elements found are added to `ellipsized`.
    static func readByOCR(_ context: inout RuleContext<ResultID>, enlarged: Bool, ellipsized: inout Set<Int>) {
        let snapshot = context.snapshot
        guard let recognition = OCRInput.recognition(&context), let screen = ScreenText(snapshot) else { return }
        // Lines read over a writing system no loaded language reads are not the text drawn.
        if !recognition.unreadable.isEmpty {
            context.cannotJudge(
                "the screen's text is \(recognition.unreadable.names.joined(separator: " and ")), which OCR cannot read with \(recognition.languages): text cut without an ellipsis is not judged; install \(recognition.unreadable.packages.joined(separator: ", ")) (scripts/setup does)"
            )
            return
        }
        for line in recognition.lines {
            if context.outOfBudget() { return }
            let text = line.text.trimmingCharacters(in: .whitespaces)
            guard let shown = beforeEllipsis(text) else { continue }
            let folded = ScreenText.fold(String(shown))
            guard folded.count >= 3, !screen.isSystemUI(line.box) else { continue }
            // The element under the line whose text starts with what is shown and goes on.
            var match: (index: Int, full: String)?
            for index in snapshot.elements.indices where screen.overlap(screen.boxes[index], line.box) * 2 >= line.box.area {
                let ref = snapshot.visibleTextRef(of: index)
                guard let full = snapshot.texts.string(ref) else { continue }
                let whole = ScreenText.fold(full)
                guard whole.count > folded.count + 1, startsNearly(whole, with: folded) else { continue }
                if let current = match, screen.boxes[current.index].area <= screen.boxes[index].area { continue }
                match = (index, full)
            }
            guard let match, !ellipsized.contains(match.index) else { continue }
            ellipsized.insert(match.index)
            report(.truncated, on: match.index, shown: text, full: match.full, confidence: line.confidence, crop: line.box, enlarged: enlarged, &context)
        }
        TextCut.report(&context, recognition: recognition, screen: screen, skipping: ellipsized, enlarged: enlarged)
    }

    /// The ellipsis drawn at the end of element `index`'s text, when it is a visible text of
    /// the app's whose own words do not end in one.
    static func drawnEllipsis(_ index: Int, snapshot: Snapshot, mapping: ScreenshotMapping) -> DrawnEllipsis? {
        let element = snapshot.elements[index]
        guard element.isVisible, !element.isHidden, !element.isSystemUI, element.role != .window, element.role != .textfield,
            let frame = element.frame
        else { return nil }
        let ref = snapshot.visibleTextRef(of: index)
        guard let text = snapshot.texts.string(ref)?.trimmingCharacters(in: .whitespacesAndNewlines), text.count >= 4,
            beforeEllipsis(text) == nil
        else { return nil }
        guard case .success(let colors) = mapping.textColors(of: frame) else { return nil }
        return DrawnEllipsis.find(mapping.screenshot, crop: colors.crop, foreground: colors.foreground, background: colors.background)
    }

    /// Why a truncation has its severity: at the default text size a list's titles are often
    /// ellipsized by design; with the text enlarged, the user lost it to their setting.
    static func severityReason(_ enlarged: Bool) -> String {
        enlarged
            ? "captured with the text enlarged: the user lost the text to their setting (WCAG 1.4.4)"
            : "at the default text size: a list's titles ellipsized by design are common"
    }

    /// `text` without the ellipsis it ends in (`…` or `...`); nil when it ends in none.
    static func beforeEllipsis(_ text: String) -> Substring? {
        text.hasSuffix("…") ? text.dropLast() : text.hasSuffix("...") ? text.dropLast(3) : nil
    }

    /// A finding of either result: what the screen shows of the element's text, where, how
    /// sure OCR was; a warning when the capture was taken with enlarged text.
    static func report(
        _ result: ResultID, on element: Int, shown: String, full: String, confidence: Double, crop: PixelRect, enlarged: Bool,
        _ context: inout RuleContext<ResultID>
    ) {
        context.report(
            result, element: element,
            evidence: [
                (.text, .string(shown)), (.expected, .string(full)), (.confidence, .number((confidence * 10).rounded() / 10)),
                (.crop, .string(crop.description)), (.severityReason, .string(severityReason(enlarged))),
            ], severity: enlarged ? .warning : .notice)
    }

    /// Whether `whole` begins with `shown`, one letter read wrong allowed in its last word.
    static func startsNearly(_ whole: [UInt8], with shown: [UInt8]) -> Bool {
        if whole.starts(with: shown) { return true }
        guard shown.count >= 5 else { return false }
        var differences = 0
        for (a, b) in zip(whole, shown) where a != b { differences += 1 }
        return differences <= 1
    }
}
