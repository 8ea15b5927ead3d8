/// `label.redundant-trait` — a label that repeats the role or state VoiceOver already
/// announces ("Play button" is read "Play button, button").
public enum LabelRedundantTraitRule: Rule {
    /// What a redundant word names.
    enum Target: String, CaseIterable {
        case button, link, image, selected, tab, `switch`, checkbox, header

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
            }
        }

        var kind: String { self == .selected ? "state" : "role" }
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
        add("zh", ["按钮", "按鈕"], .button)
        add("zh", ["链接", "鏈接", "連結"], .link)
        add("zh", ["图片", "圖片", "图像", "圖像", "图标", "圖標"], .image)
        add("zh", ["已选中", "已選中", "已选", "已選", "选中"], .selected)
        add("zh", ["标签页", "選項卡", "选项卡"], .tab)
        add("zh", ["开关", "開關"], .switch)
        add("zh", ["复选框", "複選框"], .checkbox)
        add("zh", ["标题", "標題"], .header)
        add("id", ["tombol"], .button)
        add("id", ["tautan"], .link)
        add("id", ["gambar", "ikon", "foto"], .image)
        add("id", ["dipilih", "terpilih"], .selected)
        add("id", ["sakelar"], .switch)
        add("id", ["kotak centang"], .checkbox)
        add("id", ["judul"], .header)
        return words
    }()

    public static let description = RuleDescription(
        id: "label.redundant-trait",
        title: "Label repeats the role or state",
        wcag: ["4.1.2"],
        severity: .warning,
        help: """
            Screen readers announce an element's role and state after its label, so "Play button" is \
            heard as "Play button, button" and "Selected tab" as "Selected tab, selected, tab". Words are \
            matched in English, Chinese and Indonesian at the start or end of the label, only when the \
            element really has that role or state. Fix: drop the word from the label.
            """,
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="b" role="button" label="Play button" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="t" role="tab" label="Selected tab" traits="selected" frame="0,0,44,44"/>"##, triggers: ["t"]),
            RuleExample(##"<element id="b" role="button" label="播放按钮" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Tombol kirim" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="i" role="image" label="Profile photo" frame="0,0,44,44"/>"##, triggers: ["i"]),
            RuleExample(##"<element id="b" role="button" label="Play" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="t" role="text" text="Press the button below"/>"##),
            RuleExample(##"<element id="b" role="button" label="Link account" frame="0,0,44,44"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case redundant

        public var message: String {
            "Label \"${label}\" repeats the ${kind} (\"${word}\"), which is announced already"
        }
    }

    /// Latin words split into word lists once.
    static let latinWords: [(word: Word, parts: [String])] = vocabulary
        .filter { $0.text.unicodeScalars.allSatisfy(\.isASCII) }
        .map { ($0, LabelText.words($0.text)) }
    static let otherWords: [Word] = vocabulary.filter { !$0.text.unicodeScalars.allSatisfy(\.isASCII) }

    /// Hashes (``FNV1a``) of every word of the Latin-script word lists: a label whose first
    /// and last words hash to none of them cannot end or start with a trait word.
    static let latinTokenHashes = HashSet64(latinWords.flatMap(\.parts).map { word in
        var hash = FNV1a()
        hash.add(word)
        return hash.value
    })

    /// Hashes of the lowercased first and last ASCII words (letters and digits) of a label,
    /// or nil when it is not ASCII; without a word, both are the hash of nothing. Runs on
    /// every label, so it builds no strings and allocates nothing.
    static func edgeWordHashes(_ bytes: ArraySlice<UInt8>) -> (first: UInt64, last: UInt64)? {
        let empty = FNV1a().value
        var first: UInt64?
        var last = empty
        var word: FNV1a?
        for byte in bytes {
            if byte >= 0x80 { return nil }
            let lower = byte | 0x20
            if (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                if word == nil { word = FNV1a() }
                word?.add(byte >= 0x41 && byte <= 0x5A ? lower : byte)
            } else if let finished = word {
                if first == nil { first = finished.value }
                last = finished.value
                word = nil
            }
        }
        if let finished = word {
            if first == nil { first = finished.value }
            last = finished.value
        }
        return (first ?? empty, last)
    }

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard element.isAccessible, element.isVisible, !element.label.isAbsent else { continue }
            if let edges = snapshot.texts.withBytes(element.label, edgeWordHashes),
               !latinTokenHashes.contains(edges.first), !latinTokenHashes.contains(edges.last) { continue }
            guard !snapshot.texts.isBlank(element.label) else { continue }
            let applicable = Target.allCases.filter { $0.applies(to: element) }
            guard !applicable.isEmpty, let label = snapshot.text(element.label) else { continue }
            let words = LabelText.words(label)
            var match: Word?
            for (word, parts) in latinWords where applicable.contains(word.target) {
                if words.count >= parts.count, words.suffix(parts.count).elementsEqual(parts) || words.prefix(parts.count).elementsEqual(parts) {
                    match = word
                    break
                }
            }
            if match == nil, !label.utf8.allSatisfy({ $0 < 0x80 }) {
                let trimmed = label.lowercased().trimming()
                match = otherWords.first { applicable.contains($0.target) && (trimmed.hasSuffix($0.text) || trimmed.hasPrefix($0.text)) }
            }
            guard let word = match else { continue }
            context.report(ResultID.redundant, element: index, evidence: [
                ("label", .string(label.trimming(.spaceSeparators))), ("word", .string(word.text)),
                ("language", .string(word.language)), ("kind", .string(word.target.kind)),
            ])
        }
    }
}
