/// `screen-reader.unread-text` — text drawn on the screen that no stop of the screen
/// reader says: a blind user never hears it.
public enum UnreadTextRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.unread-text",
        title: "Visible text the screen reader never says",
        wcag: ["1.3.1", "4.1.2"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Text on the screen that is in no stop's speech is seen and never heard: a caption hidden from \
            assistive technology (`accessible="false"`, `importantForAccessibility="no"`), or text inside an \
            element whose name replaces it and says something else. Judged on the screen reader's \
            transcript: every visible text of at least two letters on the app's screen (not the system's UI, \
            not covered) must be found, case and punctuation aside, in the speech of some stop. Text inside a \
            control named by a label of its own is screen-reader.label-in-name's. Fix: make the text an \
            accessibility element, or include it in the name of the element that speaks for it.
            """,
        examples: [
            RuleExample(##"<element id="t" role="text" text="Offer ends Friday" accessible="false" frame="16,100,300,20"/>"##, triggers: ["t"]),
            RuleExample(
                ##"<element id="c" role="cell" label="Order 42" frame="0,100,390,60"><element id="t" role="text" text="Shipped today" frame="16,110,200,20"/></element>"##,
                triggers: ["t"]),
            RuleExample(##"<element id="t" role="text" text="Offer ends Friday" frame="16,100,300,20"/>"##),
            RuleExample(
                ##"<element id="c" role="cell" label="Order 42, shipped today" frame="0,100,390,60"><element id="t" role="text" text="Shipped today" frame="16,110,200,20"/></element>"##
            ),
            RuleExample(##"<element id="t" role="text" text="›" accessible="false" frame="16,100,20,20"/>"##),
            // Behind an open modal the reader reaches nothing: not this rule's to report.
            RuleExample(
                ##"<element id="c" role="container" frame="0,0,390,844"><element id="t" role="text" text="Offer ends Friday" frame="16,100,300,20"/><element id="sheet" role="container" modal="true" frame="0,600,390,200"><element role="button" label="Done" frame="16,620,100,44"/></element></element>"##
            ),
            RuleExample(
                ##"<element id="b" role="button" label="Close dialog" frame="0,100,44,44"><element id="t" role="text" text="Close" frame="4,110,36,20"/></element>"##),
        ])

    public enum ResultID: String, RuleResults {
        case unread

        public var message: String { "\"${text}\" is on the screen but no stop of the screen reader says it" }
    }

    /// A letter of folded text (ASCII a–z, or any byte of a non-ASCII letter).
    static func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || byte >= 0x80 }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let transcript = Transcript.of(snapshot)
        let count = snapshot.elements.count
        // Each element's stop: itself or its nearest ancestor that is one. A text is read
        // when that stop's speech says it (its own stop, or the control it speaks through).
        var stopSpeech = [Int32](repeating: -1, count: count)
        // Read in place: a copy of each stop retains and releases its strings.
        let stops = transcript.stops
        for position in stops.indices { stopSpeech[stops[position].element] = Int32(position) }
        var owner = [Int32](repeating: -1, count: count)
        // Text inside a control named by its own label: label-in-name judges that one.
        var namedControl = [Bool](repeating: false, count: count)
        for (index, element) in snapshot.elements.enumerated() {
            let parent = Int(element.parent)
            owner[index] = stopSpeech[index] >= 0 ? stopSpeech[index] : (parent >= 0 ? owner[parent] : -1)
            let isNamedControl = element.isInteractive && !snapshot.texts.isBlank(element.label)
            namedControl[index] = isNamedControl || (parent >= 0 && namedControl[parent])
        }
        var spoken: [[UInt8]?] = Array(repeating: nil, count: transcript.stops.count)
        var shown: [UInt8] = []
        for (index, element) in snapshot.elements.enumerated() {
            if context.outOfBudget() { return }
            guard !snapshot.texts.isBlank(element.text), element.isVisible, !element.isSystemUI, !element.covered,
                let frame = element.frame, frame.width > 0, frame.height > 0, !namedControl[index],
                // Behind an open modal: dimmed, and not the reader's to say until it closes.
                !transcript.isBesideModal(index)
            else { continue }
            // Folded in place from the text table's bytes: no string is made for a text that is read.
            snapshot.texts.withBytes(element.text) { SpokenWords.fold($0, into: &shown) }
            guard shown.reduce(0, { $0 + (Self.isLetter($1) ? 1 : 0) }) >= 2 else { continue }
            let stop = Int(owner[index])
            if stop >= 0 {
                if spoken[stop] == nil { spoken[stop] = SpokenWords.fold(transcript.stops[stop].speech.utf8) }
                if let speech = spoken[stop], SpokenWords.contains(speech, shown) { continue }
            }
            context.report(.unread, element: index, evidence: [(.text, .string(snapshot.texts.string(element.text) ?? ""))])
        }
    }
}
