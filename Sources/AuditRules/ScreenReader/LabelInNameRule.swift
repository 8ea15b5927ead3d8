/// `screen-reader.label-in-name` — WCAG 2.5.3: a control's accessible name contains the
/// text it shows. Voice Control and Voice Access users say what they see ("tap Send"); a
/// screen-reader user hears the name and sighted helpers read the text.
public enum LabelInNameRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "screen-reader.label-in-name",
        title: "Accessible name does not contain the visible text",
        wcag: ["2.5.3"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            A control whose name (content description, accessibility label) replaces the text drawn on it \
            must say that text too, in the same words: a button showing "Send" named "Submit message", or \
            named by its resource id, cannot be activated by saying what is on screen. Judged on the \
            screen reader's transcript: a stop that is a control, whose name comes from its own label, \
            against the text it and the elements read through it show (at least two letters and at most five \
            words: symbols such as "‹" or "×" are not text labels, a card of text is not a label, and a \
            badge's count is not part of one; where it shows several texts — a badge or a subtitle beside its \
            title — a name holding the title, its longest text of two words or more, passes). Case, \
            punctuation and spacing are ignored. Fix: start the \
            name with the visible text ("Send, message to Ana"), or drop the description and let the text \
            be the name.
            """,
        examples: [
            RuleExample(##"<element id="b" role="button" label="Submit message" text="Send" frame="20,700,350,50"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="send_button" text="Send" frame="20,700,350,50"/>"##, triggers: ["b:identifier"]),
            RuleExample(
                ##"<element id="b" role="button" label="Continue to payment" frame="20,700,350,50"><element id="t" role="text" text="Next" frame="30,710,100,30"/></element>"##,
                triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Send, message to Ana" text="Send" frame="20,700,350,50"/>"##),
            RuleExample(##"<element id="b" role="button" label="SEND" text="Send!" frame="20,700,350,50"/>"##),
            RuleExample(##"<element id="b" role="button" label="Back" text="‹" frame="20,700,44,44"/>"##),
            RuleExample(##"<element id="b" role="button" text="Send" frame="20,700,350,50"/>"##),
            // A badge or a subtitle beside the title: the title is the label, and the name
            // holds it. A name that holds neither still fails.
            RuleExample(
                ##"<element id="r" role="cell" label="Hawkers Chilli Chicken Dry, non-veg, 459" interactive="true" frame="0,100,390,80"><element id="badge" role="text" text="Bestseller" frame="16,104,80,16"/><element id="title" role="text" text="Hawkers Chilli Chicken Dry" frame="16,124,300,22"/></element>"##
            ),
            RuleExample(
                ##"<element id="r" role="cell" label="Dish" interactive="true" frame="0,100,390,80"><element id="badge" role="text" text="Bestseller" frame="16,104,80,16"/><element id="title" role="text" text="Hawkers Chilli Chicken Dry" frame="16,124,300,22"/></element>"##,
                triggers: ["r"]),
            // A badge's count is not part of the label; a card of text is not a label.
            RuleExample(##"<element id="b" role="tab" label="Inbox" text="3 Inbox" frame="20,700,100,50"/>"##),
            RuleExample(##"<element id="b" role="button" label="Day 1 April" text="Tue Apr 01 58 / 40 °F" frame="20,700,100,50"/>"##),
            RuleExample(
                "", triggers: ["go:identifier"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="go" class="android.widget.Button" text="Sign in" content-desc="btn_login" package="com.example" clickable="true" enabled="true" bounds="[100,1000][980,1150]"/></node></hierarchy>"##
            ),
        ])

    public enum ResultID: String, RuleResults {
        case missingText = "missing-text"
        case identifier

        public var message: String {
            switch self {
            case .missingText: "The name \"${name}\" does not contain the visible text \"${visible}\": saying what is on screen will not find it"
            case .identifier: "The name \"${name}\" is an identifier, not the visible text \"${visible}\""
            }
        }
    }

    /// A test id or resource name: one word joined by `_` (`send_button`), or camelCase
    /// (`sendButton`).
    static func isIdentifier(_ name: String) -> Bool {
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else { return false }
        if name.contains("_") { return true }
        let characters = Array(name)
        return characters.indices.dropFirst().contains { characters[$0].isUppercase && characters[$0 - 1].isLowercase }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let transcript = Transcript.of(snapshot)
        // Stops are looked at in place and copied only when judged (a copy retains and
        // releases each of its strings).
        let stops = transcript.stops
        for position in stops.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[stops[position].element]
            guard element.isInteractive, !snapshot.texts.isBlank(element.label) else { continue }
            let stop = stops[position]
            let visible = visibleText(of: stop.element, in: snapshot)
            // A text label, not a card of text: at most five words; counts (a badge's "32")
            // are not part of the label.
            let shown = SpokenWords.fold(visible.utf8)
            guard String(decoding: shown, as: UTF8.self).unicodeScalars.filter({ $0.properties.isAlphabetic }).count >= 2,
                SpokenWords.fold(visible.utf8, keepingNumbers: true).split(separator: 0x20).count <= maxLabelWords
            else { continue }
            let evidence: Evidence = [(.name, .string(stop.name)), (.visible, .string(visible))]
            if isIdentifier(stop.name), !isIdentifier(visible) {
                context.report(.identifier, element: stop.element, evidence: evidence)
            } else if !SpokenWords.contains(SpokenWords.fold(stop.name.utf8), shown),
                !containsTitle(SpokenWords.fold(stop.name.utf8), of: stop.element, in: snapshot)
            {
                context.report(.missingText, element: stop.element, evidence: evidence)
            }
        }
    }

    static let maxLabelWords = 5

    /// Whether `name` holds the title among several texts the element shows — its longest
    /// text of two words or more (a badge's "Bestseller" or a row's subtitle beside "Hawkers
    /// Chilli Chicken Dry"): the label a user reads and says is the title, not every text.
    static func containsTitle(_ name: [UInt8], of index: Int, in snapshot: Snapshot) -> Bool {
        var texts: [Int] = []
        if !snapshot.texts.isBlank(snapshot.elements[index].text) { texts.append(index) }
        var pending: [Int] = snapshot.children(of: index).reversed()
        while let next = pending.popLast() {
            let child = snapshot.elements[next]
            guard child.isVisible, !child.isInteractive else { continue }
            if !snapshot.texts.isBlank(child.text) { texts.append(next) }
            pending.append(contentsOf: snapshot.children(of: next).reversed())
        }
        guard texts.count >= 2 else { return false }
        let folded = texts.map { snapshot.texts.withBytes(snapshot.elements[$0].text) { SpokenWords.fold($0) } }
        guard let title = folded.max(by: { $0.count < $1.count }), title.split(separator: 0x20).count >= 2 else { return false }
        return SpokenWords.contains(name, title)
    }

    /// The text element `index` shows: its own, then that of plain elements inside it.
    static func visibleText(of index: Int, in snapshot: Snapshot) -> String {
        var parts: [String] = []
        if let own = snapshot.texts.string(snapshot.elements[index].text), !snapshot.texts.isBlank(snapshot.elements[index].text) {
            parts.append(own)
        }
        var pending: [Int] = snapshot.children(of: index).reversed()
        while let next = pending.popLast() {
            let child = snapshot.elements[next]
            guard child.isVisible, !child.isInteractive else { continue }
            if !snapshot.texts.isBlank(child.text), let text = snapshot.texts.string(child.text) { parts.append(text) }
            pending.append(contentsOf: snapshot.children(of: next).reversed())
        }
        return parts.joined(separator: " ")
    }
}
