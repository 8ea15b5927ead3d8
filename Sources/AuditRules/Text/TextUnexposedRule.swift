/// `text.unexposed` — text drawn on the screen that is in no element of the tree: a
/// custom-drawn view, a canvas, text baked into an image; seen by everyone, silent for a
/// screen reader. Read from the screenshot by OCR (docs/ocr.md).
public enum TextUnexposedRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "text.unexposed",
        title: "Text on screen that no element exposes",
        wcag: ["1.1.1", "4.1.2"],
        severity: .warning,
        enabledIn: [],
        help: """
            Text drawn by a custom view, a canvas or a game's menu, or baked into an image, is visible to \
            everyone and absent from the accessibility tree: a screen reader never says it (Google's \
            Accessibility Scanner reports it as unexposed text). Judged on OCR of the screenshot — run when \
            an audit asks for it (`?ocr=1`, `auditctl audit --ocr`): the words read with confidence \
            (two characters or more, at least one letter) that no element's label, text, value, hint or \
            placeholder contains, compared case-folded, letters and digits only, allowing one letter \
            read wrong in words of five or more, letters styled with Unicode look-alikes (𝐛𝐨𝐥𝐝, ꜱᴍᴀʟʟ ᴄᴀᴘꜱ) \
            read as the letters they show; the words of one line are reported together. An error \
            when the phrase is read with high confidence and has two words or more, else a warning; text \
            inside an image element, a view named as a video, thumbnail or cover, a described leaf with \
            no text of its own (Compose's `Image`), or a page of a feed of clips (a nameless leaf \
            filling most of a scroller) is `text-in-image`, a notice (a picture's own lettering may be \
            decoration). The system's UI (status and navigation bars, the keyboard, and text outside every \
            window of the app) is left out. OCR \
            that found nothing is never taken for a pass of what it could not read, and other words \
            read where a text element stands (a screenshot taken at another moment than the dump) \
            are incomplete for that element, not a finding. Fix: expose the text \
            (an accessibility element with the text as its label), or describe the image.
            """,
        examples: [
            // A game's menu drawn on a canvas: read, and in no element.
            RuleExample(
                ##"<element id="canvas" role="other" draws-content="true" frame="0,100,390,400"/>"##, triggers: ["canvas"],
                screenshot: screen([.init("Level 3 complete", Rect(x: 40, y: 200, width: 300, height: 30))])),
            // The same words exposed by an element: nothing to report.
            RuleExample(
                ##"<element id="title" role="text" text="Level 3 complete" frame="40,200,300,30"/>"##,
                screenshot: screen([.init("Level 3 complete", Rect(x: 40, y: 200, width: 300, height: 30))])),
            // One letter misread ("Levei"): still the exposed words.
            RuleExample(
                ##"<element id="title" role="text" text="Level 3 complete" frame="40,200,300,30"/>"##,
                screenshot: screen([.init("Levei 3 complete", Rect(x: 40, y: 200, width: 300, height: 30))])),
            // Lettering inside a picture: a notice.
            RuleExample(
                ##"<element id="banner" role="image" label="Summer banner" frame="0,100,390,200"/>"##, triggers: ["banner:text-in-image"],
                screenshot: screen([.init("SALE ends Sunday", Rect(x: 40, y: 150, width: 300, height: 40))])),
            // Letters styled with Unicode look-alikes (mathematical bold, small capitals) are
            // the words they show: exposed (DeepEye's video titles).
            RuleExample(
                ##"<element id="title" role="text" text="𝐓𝐫𝐞𝐧𝐝𝐢𝐧𝐠 songs by ᴢᴀᴋᴇᴇ" frame="40,200,300,30"/>"##,
                screenshot: screen([.init("Trending songs by ZAKEE", Rect(x: 40, y: 200, width: 300, height: 30))])),
            // A page of a feed of clips (a nameless leaf filling a pager): its lettering is the
            // video's, a notice (TikTok's feed).
            RuleExample(
                ##"<element id="feed" role="container" scrollable="true" frame="0,0,390,844"><element id="clip" role="other" frame="0,0,390,800"/></element>"##,
                triggers: ["clip:text-in-image"],
                screenshot: screen([.init("CHAMA O CINTURAO", Rect(x: 60, y: 300, width: 260, height: 40))])),
            // A leaf described and showing no text of its own is a picture (Compose's Image: a
            // video's thumbnail described by its title); its lettering a notice.
            RuleExample(
                ##"<element id="thumb" role="other" label="Trending songs" frame="0,100,390,220"/>"##, triggers: ["thumb:text-in-image"],
                screenshot: screen([.init("Peligrosa", Rect(x: 200, y: 180, width: 120, height: 34))])),
            // One OCR word that folds to two ("ZAKEE.OXLOFI" for "ᴢᴀᴋᴇᴇ.0xʟᴏꜰɪ"): each part is compared.
            RuleExample(
                ##"<element id="channel" role="text" text="ᴢᴀᴋᴇᴇ.0xʟᴏꜰɪ" frame="40,200,200,20"/>"##,
                screenshot: screen([.init("ZAKEE.OXLOFI", Rect(x: 40, y: 200, width: 200, height: 20))])),
            // Other words where a text element stands: the screenshot and the dump were taken
            // at different moments (Safe Drive Africa's "NOT DRIVING" over a dump's "IDLE").
            RuleExample(
                ##"<element id="state" role="text" text="IDLE" frame="40,200,300,30"/>"##, incomplete: ["state"],
                screenshot: screen([.init("NOT DRIVING", Rect(x: 40, y: 200, width: 200, height: 30))])),
            // Text outside every window of the app (the status bar above a window that starts
            // below it) is the system's.
            RuleExample(
                "",
                document:
                    ##"<snapshot version="1" platform="android" app="com.example" screen="Example" width="390" height="844"><element id="app" role="window" frame="0,40,390,804" background="#FFFFFF"><element id="title" role="text" text="Medicines" frame="16,60,200,30"/></element></snapshot>"##,
                screenshot: screen([.init("Tue, 14 Jul", Rect(x: 40, y: 8, width: 90, height: 20))])
            ),
            // Symbols and lone digits are not text to expose.
            RuleExample(
                ##"<element id="canvas" role="other" frame="0,100,390,400"/>"##,
                screenshot: screen([.init("< 3 —", Rect(x: 40, y: 200, width: 100, height: 30))])),
            // A screenshot OCR did not read: not judged, never passed.
            RuleExample(
                ##"<element id="canvas" role="other" frame="0,100,390,400"/>"##, incomplete: ["<snapshot>"],
                screenshot: ExampleScreenshot(background: .white, [])),
        ])

    /// A white screen on which OCR reads `lines`.
    static func screen(_ lines: [ExampleScreenshot.ReadLine]) -> ExampleScreenshot {
        ExampleScreenshot(background: .white, [], read: lines)
    }

    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.confidence, .crop, .other]

        case unexposed
        case textInImage = "text-in-image"

        public var message: String {
            switch self {
            case .unexposed: "\"${text}\" is drawn on the screen but no element exposes it to assistive technology"
            case .textInImage: "The image shows the text \"${text}\", which its description does not say"
            }
        }
    }

    /// Two characters or more once folded, at least one of them a letter, and not a time
    /// of day ("2:59p", "9:41 AM": clocks change between the dump and the screenshot).
    static func isMeaningful(_ text: String) -> Bool {
        let folded = ScreenText.fold(text)
        guard folded.count >= 2, folded.contains(where: { !(0x30...0x39).contains($0) && $0 != 0x20 }) else { return false }
        let lower = text.lowercased()
        if lower.contains(":"), lower.first?.isNumber == true { return false }
        return !["am", "pm", "am,", "pm,"].contains(lower)
    }

    /// A phrase of one word is reported only when it is read surely and is a word: four
    /// letters or more, read with this confidence (OCR reads icons as "ft", "oe", "Vv").
    static let singleWordConfidence = 85.0

    /// The confidence (0–100) above which a phrase of two words or more is an error.
    static let sureConfidence = 88.0

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        guard let recognition = OCRInput.recognition(&context) else { return }
        guard let screen = ScreenText(snapshot) else { return }
        // Words read where the screen writes in a system no loaded language reads are its
        // glyphs misread as Latin pseudo-words ("Chinese read as two English words"): the
        // screen cannot be judged, and says how to make it so.
        if !recognition.unreadable.isEmpty {
            context.cannotJudge(
                "the screen's text is \(recognition.unreadable.names.joined(separator: " and ")), which OCR cannot read with \(recognition.languages): words read here may be its glyphs misread; install \(recognition.unreadable.packages.joined(separator: ", ")) (scripts/setup does)"
            )
            return
        }
        for line in recognition.lines {
            if context.outOfBudget() { return }
            // Runs of unexposed words, reported as phrases.
            var run: [TextRecognition.Word] = []
            func flush(_ context: inout RuleContext<ResultID>) {
                defer { run = [] }
                // Numbers and symbols trailing the phrase are not part of it.
                while let last = run.last, !isMeaningful(last.text) { run.removeLast() }
                guard !run.isEmpty else { return }
                let box = PixelRect.union(of: run.map(\.box))
                guard !screen.isSystemUI(box) else { return }
                let words = run.filter { isMeaningful($0.text) }
                if words.count == 1, let only = words.first {
                    guard ScreenText.fold(only.text).count >= 4, only.confidence >= singleWordConfidence else { return }
                }
                let owner = screen.owner(of: box)
                let text = run.map(\.text).joined(separator: " ")
                let confidence = run.map(\.confidence).reduce(0, +) / Double(run.count)
                var evidence: Evidence = [
                    (.text, .string(text)), (.confidence, .number((confidence * 10).rounded() / 10)), (.crop, .string(box.description)),
                ]
                if let owner { evidence.append((.other, .string(snapshot.node(owner).path))) }
                if let standing = screen.textElement(at: box, owner: owner) {
                    // A text element shows its own text: other words read in its place mean
                    // the screenshot was taken at another moment than the dump.
                    let own = snapshot.node(standing).visibleText ?? ""
                    context.cannotJudge(
                        "the screenshot shows “\(text)” where the text element says “\(own.prefix(60))”: taken at another moment than the capture?",
                        element: standing)
                } else if let owner, screen.isInPicture(owner) {
                    context.report(.textInImage, element: owner, evidence: evidence, severity: .notice)
                } else {
                    let sure = confidence >= sureConfidence && words.count >= 2
                    context.report(.unexposed, element: owner, evidence: evidence, severity: sure ? .error : .warning)
                }
            }
            for word in line.words {
                let folded = ScreenText.fold(word.text)
                let meaningful = isMeaningful(word.text)
                // A number or a symbol inside a phrase ("Level 3 complete") is part of it;
                // alone it is nothing to expose.
                guard meaningful else {
                    if !run.isEmpty { run.append(word) }
                    continue
                }
                // Near the word first, then anywhere on screen (OCR's boxes drift; a text
                // exposed elsewhere is exposed).
                let nearby = screen.owner(of: word.box).map { ScreenText.contains(screen.folded[$0], folded) } ?? false
                if nearby || ScreenText.contains(screen.everything, folded) {
                    flush(&context)
                } else {
                    run.append(word)
                }
            }
            flush(&context)
        }
    }
}
