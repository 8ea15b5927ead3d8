/// `label.redundant-trait` — a label that repeats the role, state or action hint the
/// screen reader already announces ("Play button" is read "Play button, button"; "Tap to
/// play" is followed by "double tap to activate").
public enum LabelRedundantTraitRule: Rule {
    /// What a redundant word names.
    enum Target: String, CaseIterable {
        case button, link, image, selected, tab, `switch`, checkbox, header, checkState, action

        func applies(to element: Element) -> Bool {
            switch self {
            case .button: element.role == .button || element.traits.contains(.button)
            case .link: element.role == .link || element.traits.contains(.link)
            case .image: element.role == .image || element.traits.contains(.image)
            case .selected: element.traits.contains(.selected)
            case .tab: element.role == .tab
            case .switch: element.role == .switch || element.traits.contains(.toggleButton)
            case .checkbox: element.role == .checkbox
            case .header: element.traits.contains(.header)
            case .checkState:
                element.role == .checkbox || element.role == .switch || element.role == .radio
                    || element.traits.contains(.toggleButton) || element.checked != nil
            case .action: element.isInteractive
            }
        }

        var kind: String {
            switch self {
            case .selected, .checkState: "state"
            case .action: "action hint"
            default: "role"
            }
        }
    }

    /// A word that names a role or state, in one language.
    struct Word {
        var text: String
        var language: String
        var target: Target
    }

    static let vocabulary: [Word] = {
        var words: [Word] = []
        func add(_ language: String, _ texts: [String], _ target: Target) {
            words += texts.map { Word(text: $0, language: language, target: target) }
        }
        add("en", ["button", "btn"], .button)
        add("en", ["link"], .link)
        add("en", ["image", "icon", "picture", "photo", "graphic"], .image)
        add("en", ["selected", "checked"], .selected)
        add("en", ["tab"], .tab)
        add("en", ["switch", "toggle"], .switch)
        add("en", ["checkbox", "check box"], .checkbox)
        add("en", ["heading", "header"], .header)
        add("en", ["unchecked", "not checked", "checked", "unselected", "not selected"], .checkState)
        add("en", ["double tap", "double-tap", "tap to", "tap here", "click to", "click here", "press to", "tap for"], .action)
        add("zh", ["按钮", "按鈕"], .button)
        add("zh", ["链接", "鏈接", "連結"], .link)
        add("zh", ["图片", "圖片", "图像", "圖像", "图标", "圖標"], .image)
        add("zh", ["已选中", "已選中", "已选", "已選", "选中"], .selected)
        add("zh", ["标签页", "選項卡", "选项卡"], .tab)
        add("zh", ["开关", "開關"], .switch)
        add("zh", ["复选框", "複選框"], .checkbox)
        add("zh", ["标题", "標題"], .header)
        add("zh", ["未选中", "未選中", "未勾选", "未勾選", "已勾选", "已勾選"], .checkState)
        add("zh", ["双击", "雙擊", "点击", "點擊", "轻点", "輕點", "单击", "單擊"], .action)
        add("id", ["tombol"], .button)
        add("id", ["tautan"], .link)
        add("id", ["gambar", "ikon", "foto"], .image)
        add("id", ["dipilih", "terpilih"], .selected)
        add("id", ["sakelar"], .switch)
        add("id", ["kotak centang"], .checkbox)
        add("id", ["judul"], .header)
        add("id", ["tidak dipilih", "tidak dicentang", "dicentang"], .checkState)
        add("id", ["ketuk dua kali", "ketuk untuk", "klik untuk", "klik di sini", "tekan untuk"], .action)
        return words
    }()

    public static let description = RuleDescription(
        for: Self.self,
        id: "label.redundant-trait",
        title: "Label repeats the role or state",
        wcag: ["4.1.2"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Screen readers announce an element's role and state after its label, and how to use it, so \
            "Play button" is heard as "Play button, button", "Selected tab" as "Selected tab, selected, \
            tab", "Unchecked notifications" as "Unchecked notifications, checkbox, not checked", and "Tap to \
            play" is followed by "double tap to activate". Words are matched anywhere in the label, as whole \
            words, in English, Chinese and Indonesian, only when the element really has that role or \
            state (action words: when it is interactive). Fix: drop the word from the label.
            """,
        examples: [
            RuleExample(##"<element id="b" role="button" label="Play button" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="t" role="tab" label="Selected tab" traits="selected" frame="0,0,44,44"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="b" role="button" label="播放按钮" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Tombol kirim" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="i" role="image" label="Profile photo" frame="0,0,44,44"/>"##, triggers: ["i"]),
            RuleExample(##"<element id="b" role="button" label="Play" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="t" role="text" text="Press the button below"/>"##),
            RuleExample(##"<element id="b" role="button" label="Link account" frame="0,0,44,44"/>"##),
            // Anywhere in the name: action hints and states.
            RuleExample(##"<element id="v" role="button" label="Tap to play the video" frame="0,0,44,44"/>"##, triggers: ["v"]),
            RuleExample(##"<element id="v" role="cell" interactive="true" label="Receipt, double tap to open" frame="0,0,300,44"/>"##, triggers: ["v"]),
            RuleExample(##"<element id="c" role="checkbox" label="Unchecked notifications" frame="0,0,44,44"/>"##, triggers: ["c"]),
            RuleExample(##"<element id="v" role="button" label="点击播放" frame="0,0,44,44"/>"##, triggers: ["v"]),
            RuleExample(##"<element id="v" role="button" label="Ketuk dua kali untuk membuka" frame="0,0,44,44"/>"##, triggers: ["v"]),
            RuleExample(##"<element id="t" role="text" text="Tap to play the video"/>"##),
            RuleExample(##"<element id="b" role="button" label="Checked bags" frame="0,0,44,44"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.language]

        case redundant

        public var message: String {
            "Label \"${label}\" repeats the ${kind} (\"${word}\"), which is announced already"
        }
    }

    /// Latin words split into word lists once.
    static let latinWords: [(word: Word, parts: [String])] =
        vocabulary
        .filter { $0.text.unicodeScalars.allSatisfy(\.isASCII) }
        .map { ($0, LabelText.words($0.text)) }
    static let otherWords: [Word] = vocabulary.filter { !$0.text.unicodeScalars.allSatisfy(\.isASCII) }

    /// Hashes (``FNV1a``) of every word of the Latin-script word lists: a label whose first
    /// and last words hash to none of them cannot end or start with a trait word.
    static let latinTokenHashes = HashSet64(
        latinWords.flatMap(\.parts).map { word in
            var hash = FNV1a()
            hash.add(word)
            return hash.value
        })

    /// Whether any lowercased ASCII word (letters and digits) of a label hashes to a word of
    /// the vocabulary, or nil when the label is not ASCII. Runs on every label, so it builds
    /// no strings and allocates nothing.
    static func mayHoldVocabulary(_ bytes: ArraySlice<UInt8>) -> Bool? {
        var found = false
        var word: FNV1a?
        for byte in bytes {
            if byte >= 0x80 { return nil }
            let lower = byte | 0x20
            if (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                if word == nil { word = FNV1a() }
                word?.add(byte >= 0x41 && byte <= 0x5A ? lower : byte)
            } else if let finished = word {
                if latinTokenHashes.contains(finished.value) { found = true }
                word = nil
            }
        }
        if let finished = word, latinTokenHashes.contains(finished.value) { found = true }
        return found
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isAccessible, element.isVisible, !element.label.isAbsent else { continue }
            if snapshot.texts.withBytes(element.label, mayHoldVocabulary) == false { continue }
            guard !snapshot.texts.isBlank(element.label) else { continue }
            let applicable = Target.allCases.filter { $0.applies(to: element) }
            guard !applicable.isEmpty, let label = snapshot.text(element.label) else { continue }
            let words = LabelText.words(label)
            var match: Word?
            // Whole words anywhere: a run of the label's words equal to the vocabulary's.
            for (word, parts) in latinWords where applicable.contains(word.target) && words.count >= parts.count {
                if (0...(words.count - parts.count)).contains(where: { words[$0..<($0 + parts.count)].elementsEqual(parts) }) {
                    match = word
                    break
                }
            }
            if match == nil, !label.utf8.allSatisfy({ $0 < 0x80 }) {
                let lowered = label.lowercased()
                match = otherWords.first { applicable.contains($0.target) && lowered.contains($0.text) }
            }
            guard let word = match else { continue }
            context.report(
                ResultID.redundant, element: index,
                evidence: [
                    (.label, .string(label.trimming(.spaceSeparators))), (.word, .string(word.text)),
                    (.language, .string(word.language)), (.kind, .string(word.target.kind)),
                ])
        }
    }
}
