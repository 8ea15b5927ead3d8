/// `label.unreadable` — a name a screen reader cannot say as words: an icon font's private
/// glyph, punctuation alone, or a developer's identifier (`loginBtn`, `TextView`,
/// `text-input`). Apple's accessibility audit calls it "Label not human-readable".
public enum LabelUnreadableRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "label.unreadable",
        title: "Name is not human-readable",
        wcag: ["1.1.1", "4.1.2"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            A name must be words a person can follow. Detected: characters of the Unicode private-use \
            area (U+E000–U+F8FF and planes 15–16), which icon fonts draw as glyphs and screen readers \
            read as nothing or as a code point, when they are all the reader says (a glyph beside words \
            leaves the words to be heard; a glyph inside a control that says a name of its own, or \
            beside other texts of its control, is never said alone); names of punctuation alone ("·", "|", "..."); and \
            identifiers — camelCase, PascalCase or kebab-case tokens made of interface words \
            (`loginBtn`, `TextView`, `SearchBar`, `text-input`, `Padding-Right`) — the id or type that \
            leaks through when nobody wrote a label; a sentence that mentions one is words, and text \
            drawn on screen (a menu row titled "TextFields"; with OCR, a content description read \
            inside its element, as Flutter gives visible text) is what everyone reads, so only a name a \
            reader alone hears is judged. What is never heard is not judged: the keyboard, another \
            app's window, a text silenced by its control's own name. Brand names (YouTube, PayPal) and hyphenated words \
            (Wi-Fi, check-in) are readable. snake_case and file names are `label.filename`'s. Fix: write \
            what the element is or does, in words.
            """,
        examples: [
            // A password field's bullets are what was typed, not its name.
            RuleExample(##"<element id="pw" role="textfield" text="•••••••••" interactive="true"/>"##),
            RuleExample(##"<element id="b" role="button" label="&#xE8B6;" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="t" role="text" text="&#xF101;" frame="0,0,200,44"/>"##, triggers: ["t"]),
            // A glyph beside words: the words are heard.
            RuleExample(##"<element id="t" role="text" text="&#xF101; Favourites" frame="0,0,200,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="·" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="loginBtn" frame="0,0,88,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="f" role="textfield" label="TextView" frame="0,0,200,44"/>"##, triggers: ["f"]),
            RuleExample(##"<element id="f" role="textfield" label="text-input" frame="0,0,200,44"/>"##, triggers: ["f"]),
            RuleExample(##"<element id="b" role="button" label="Icon BottomMenuItem" frame="0,0,88,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="YouTube" frame="0,0,88,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="Wi-Fi" frame="0,0,88,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="Check-in" frame="0,0,88,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="Add to cart" frame="0,0,88,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="iPhone 15" frame="0,0,88,44"/>"##),
            RuleExample(##"<element id="c" role="cell" interactive="true" label="Use of UITextField" frame="0,0,300,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="+" frame="0,0,44,44"/>"##),
            // Text drawn on screen is what everyone reads, even when it looks like code.
            RuleExample(##"<element id="t" role="text" label="TextFields" frame="0,0,200,44"/>"##),
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.Button" text="WebView" package="com.example" clickable="true" enabled="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            // An empty TextView's content description is heard, not drawn: an identifier there
            // is what TalkBack alone says.
            RuleExample(
                "", triggers: ["t"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="t" class="android.widget.TextView" text="" content-desc="headerTitleLabel" package="com.example" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            // An icon font's glyph inside a control described in words: never reached.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.FrameLayout" content-desc="Close" package="com.example" clickable="true" enabled="true" bounds="[40,40][200,200]"><node class="android.widget.TextView" text="&#xE5CD;" package="com.example" bounds="[60,60][180,180]"/></node></node></hierarchy>"##
            ),
            // A glyph whose own content description speaks instead of it.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" text="&#xE921;" content-desc="Go back to previous page" package="com.example" clickable="true" enabled="true" bounds="[40,40][200,200]"/></node></hierarchy>"##
            ),
            // A glyph beside a text in one control: the control says the text.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" clickable="true" enabled="true" bounds="[40,40][1040,200]"><node class="android.widget.TextView" text="&#xE9AB;" package="com.example" bounds="[60,60][180,180]"/><node class="android.widget.TextView" text="Leave at the door" package="com.example" bounds="[200,60][1000,180]"/></node></node></hierarchy>"##
            ),
            // A control named by its glyph alone: the reader says nothing it can use.
            RuleExample(
                "", triggers: ["g"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" clickable="true" enabled="true" bounds="[40,40][200,200]"><node resource-id="g" class="android.widget.TextView" text="&#xE922;" package="com.example" bounds="[60,60][180,180]"/></node></node></hierarchy>"##
            ),
            // A content description that is also drawn (Flutter gives visible text so): OCR
            // reads it inside the element — a gallery's "TextField" demo title is words on
            // screen. Not read there, it is an identifier only a reader hears.
            RuleExample(
                ##"<element id="t" role="button" label="TextField" frame="16,100,120,22"/>"##,
                screenshot: ExampleScreenshot(
                    background: .white, [.init(Rect(x: 16, y: 104, width: 90, height: 14), .black)],
                    read: [.init("TextField", Rect(x: 16, y: 100, width: 90, height: 22))])),
            RuleExample(
                ##"<element id="t" role="button" label="TextField" frame="16,100,120,22"/>"##, triggers: ["t"],
                screenshot: ExampleScreenshot(
                    background: .white, [.init(Rect(x: 16, y: 304, width: 90, height: 14), .black)],
                    read: [.init("TextField", Rect(x: 16, y: 300, width: 90, height: 22))])),
            // Android: a content description written as a developer's name.
            RuleExample(
                "", triggers: ["login"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="login" class="android.widget.Button" content-desc="loginBtn" package="com.example" clickable="true" enabled="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case privateGlyph = "private-use-glyph"
        case punctuation
        case identifier

        public var message: String {
            switch self {
            case .privateGlyph: "Name \"${name}\" holds an icon font's private-use glyph (${code-point}), which screen readers cannot say"
            case .punctuation: "Name \"${name}\" is punctuation alone"
            case .identifier: "Name \"${name}\" is a developer's identifier (\"${token}\"), not words"
            }
        }
    }

    /// Words of interface code that make a camelCase, PascalCase or kebab-case token an
    /// identifier rather than a brand (`loginBtn`, `SearchBar`, not `YouTube`).
    static let interfaceWords: Set<String> = [
        "view", "bar", "field", "fields", "item", "items", "button", "btn", "text", "txt", "label", "lbl", "cell", "menu",
        "container", "layout", "image", "img", "icon", "ic", "input", "padding", "margin", "wrapper", "row", "list",
        "header", "footer", "nav", "tab", "modal", "card", "toggle", "edit", "placeholder", "holder", "layer", "scroll",
        "textfield", "textview", "imageview", "icn", "ctrl", "control", "widget", "fragment", "activity", "dialog",
    ]

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let texts = snapshot.texts
        let speaking = SpeakingControls(snapshot)
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            // What is never heard is not judged: another app's window or the keyboard, and a
            // plain element inside a control that says a name of its own.
            guard element.isAccessible, element.isVisible, !element.isSystemUI, !speaking.isSilenced(index) else { continue }
            // The name the reader says: the label (content description) replaces the text.
            let spoken = !texts.isBlank(element.label) ? element.label : element.text
            // A private glyph is unreadable where it is all that is said: alone in the name,
            // and — for a plain element — alone in the name of the control it speaks for. A
            // glyph beside words ("★ Favourites") leaves the words to be heard. Every test
            // below reads the bytes in place first; strings are built only for the few names
            // that may be a finding.
            if !spoken.isAbsent, texts.withBytes(spoken, LabelText.holdsPrivateUseGlyph) {
                guard let candidate = texts.string(spoken), let scalar = candidate.unicodeScalars.first(where: LabelText.isPrivateUse) else { continue }
                let control = Int(speaking.speaker[index])
                let sharesControl = !SpeakingControls.isControl(element) && control >= 0 && speaking.voiceCount(of: control) > 1
                if !hasWords(candidate), !sharesControl {
                    let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
                    context.report(ResultID.privateGlyph, element: index, evidence: [(.name, .string(candidate)), (.codePoint, .string(code))])
                }
                continue
            }
            // A field's text is what was typed (a password's bullets), not a name given to it.
            let ref = !element.label.isAbsent ? element.label : (element.isInteractive && element.role != .textfield ? element.text : .absent)
            // Punctuation alone and identifiers are short: a name of thousands of bytes is
            // neither, and is not split into words (one 9 MB label took seconds).
            guard !ref.isAbsent, ref.count <= maximumJudgedBytes, !texts.isBlank(ref) else { continue }
            let (hasAlphanumeric, mayBeIdentifier) = texts.withBytes(ref, shape)
            if !hasAlphanumeric, let name = texts.string(ref), name.unicodeScalars.allSatisfy(isPunctuationOrSpace) {
                context.report(ResultID.punctuation, element: index, evidence: [(.name, .string(name))])
                continue
            }
            // Only a hump after lower case or a hyphen between letters can make an
            // identifier: most names stop here. A name that is the text drawn on screen
            // (a button titled "WebView", a menu row "TextFields") is what everyone reads:
            // only a name that a reader alone hears can be a leaked identifier.
            guard mayBeIdentifier, !isDrawnText(ref, of: index, in: snapshot), let name = texts.string(ref),
                LabelFilenameRule.pattern(of: name, image: snapshot.node(index).image) == nil,
                let token = identifierToken(in: name), !isReadOnScreen(name, of: index, in: snapshot)
            else { continue }
            context.report(ResultID.identifier, element: index, evidence: [(.name, .string(name)), (.token, .string(token))])
        }
    }

    /// Names longer than this are not looked at as punctuation or identifiers.
    static let maximumJudgedBytes: UInt32 = 1_024

    /// True when `name` has a letter or digit outside the private-use areas: words to say.
    static func hasWords(_ name: String) -> Bool {
        name.unicodeScalars.contains { !LabelText.isPrivateUse($0) && ($0.properties.isAlphabetic || $0.properties.numericType != nil) }
    }

    /// True when `ref` is the text element `index` draws on screen (its `text`, or the
    /// label of a static text, whose label is its text).
    static func isDrawnText(_ ref: TextRef, of index: Int, in snapshot: Snapshot) -> Bool {
        let drawn = snapshot.visibleTextRef(of: index)
        guard !drawn.isAbsent else { return false }
        return drawn == ref || snapshot.texts.string(drawn) == snapshot.texts.string(ref)
    }

    /// True when OCR read `name` inside element `index`'s frame: a content description that
    /// is also drawn (Flutter gives every visible text so; a gallery app's "TextField" demo
    /// title) is what everyone reads, not a leaked identifier. Letters and digits are
    /// compared without case, spaces or punctuation ("Text Field" reads "TextField").
    static func isReadOnScreen(_ name: String, of index: Int, in snapshot: Snapshot) -> Bool {
        guard let recognition = snapshot.recognizedText, let mapping = snapshot.screenshot,
            let frame = snapshot.elements[index].frame
        else { return false }
        func letters(_ text: String) -> String { String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }) }
        let wanted = letters(name)
        guard !wanted.isEmpty else { return false }
        let box = mapping.pixels(of: frame)
        for line in recognition.lines {
            // The words whose centres lie inside the element, in reading order.
            let inside = line.words.filter { word in
                let centreX = word.box.x + word.box.width / 2, centreY = word.box.y + word.box.height / 2
                return centreX >= box.x && centreX < box.x + box.width && centreY >= box.y && centreY < box.y + box.height
            }
            if !inside.isEmpty, letters(inside.map(\.text).joined()).contains(wanted) { return true }
        }
        return false
    }

    /// One pass over a name's bytes: whether it has an ASCII letter or digit (without one,
    /// its characters are looked at one by one: other scripts have letters too), and whether it has a camel hump (upper case after
    /// lower case) or a hyphen between letters.
    static func shape(_ bytes: ArraySlice<UInt8>) -> (hasAlphanumeric: Bool, mayBeIdentifier: Bool) {
        var alphanumeric = false, identifier = false
        var previous: UInt8 = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            let lower = byte | 0x20
            let isLetter = lower >= 0x61 && lower <= 0x7A
            if isLetter || (byte >= 0x30 && byte <= 0x39) { alphanumeric = true }
            if byte >= 0x41, byte <= 0x5A, previous >= 0x61, previous <= 0x7A { identifier = true }
            if previous == UInt8(ascii: "-"), isLetter, index - 2 >= bytes.startIndex {
                let before = bytes[index - 2] | 0x20
                if before >= 0x61, before <= 0x7A { identifier = true }
            }
            previous = byte
            index += 1
        }
        return (alphanumeric, identifier)
    }

    static func isPunctuationOrSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace || scalar == "|" { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    /// The identifier a name consists of: every space-separated token is an identifier
    /// (ASCII letters and digits in camel humps or hyphen-separated parts, two or more, one
    /// of them an interface word) or an interface word itself ("Icon BottomMenuItem"). A
    /// sentence that mentions one ("Use of UITextField") is words.
    static func identifierToken(in name: String) -> String? {
        var found: String?
        for token in name.split(separator: " ") {
            guard token.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == UInt8(ascii: "-") }) else {
                return nil
            }
            let parts = identifierParts(String(token))
            if parts.count >= 2, parts.contains(where: interfaceWords.contains) {
                found = found ?? String(token)
            } else if parts.count != 1 || !interfaceWords.contains(parts[0]) {
                return nil
            }
        }
        return found
    }

    /// `loginBtn` → login, btn; `SearchBar` → search, bar; `text-input` → text, input;
    /// `iPhone` → iphone (a hump after one letter is a brand's, not a word boundary).
    static func identifierParts(_ token: String) -> [String] {
        var parts: [String] = []
        for piece in token.split(separator: "-") {
            var current = ""
            for character in piece {
                if character.isUppercase, current.count >= 2, current.last?.isLowercase == true {
                    parts.append(current.lowercased())
                    current = ""
                }
                current.append(character)
            }
            if !current.isEmpty { parts.append(current.lowercased()) }
        }
        return parts
    }
}
