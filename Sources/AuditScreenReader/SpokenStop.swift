/// What a reader says at one stop.
///
/// The name: TalkBack says a content description instead of the text and of everything
/// inside; without one, the node's own text, then the texts (or content descriptions) of
/// the descendants that are not stops of their own, in tree order — an edit box without
/// either says its hint. VoiceOver says the label (else the text), then the value.
/// Role and state come from the element's role, traits and checked state; the hint is the
/// element's own (VoiceOver's accessibility hint), not the readers' generic usage hints.
struct SpokenStop {
    var name: String
    var value: String?
    var role: SpokenRole?
    var state: [SpokenState]
    var hint: String?
    /// Custom actions, by name: the reader says that some are available.
    var actions: [String]
    /// The reader's usage hint, said after a pause (not part of the speech).
    var usage: UsageHint?

    /// `elements` and `texts` are the snapshot's, read once by the caller for all its
    /// stops, and every argument is borrowed (an initialiser's are owned by default): each
    /// retain per stop of the snapshot or its storage is a count the rules on the other
    /// thread update too, a contended cache line (a tenth of a transcript under load).
    init(
        _ snapshot: borrowing Snapshot, index: Int, reader: ScreenReader, focus: borrowing FocusRules,
        elements: borrowing [Element], texts: borrowing TextTable
    ) {
        let element = elements[index]
        func string(_ ref: TextRef) -> String? {
            texts.isBlank(ref) ? nil : texts.string(ref).map(Self.spoken)
        }
        var name: String
        var value: String?
        switch reader {
        case .talkback:
            // An edit box is named by what is typed in it; its description only when empty.
            if element.role == .textfield, let typed = string(element.text) {
                name = typed
            } else if let description = string(element.label) {
                name = description
            } else {
                var parts: [String] = []
                if let own = string(element.text) { parts.append(own) }
                Self.collectSpokenDescendants(of: index, snapshot, focus, elements: elements, texts: texts, into: &parts)
                name = parts.joined(separator: ", ")
                if name.isEmpty, element.role == .textfield, let placeholder = string(element.placeholder) { name = placeholder }
            }
        case .voiceover:
            name = string(element.label) ?? string(element.text) ?? ""
            // An element that contains others (a table cell) says what they say, joined.
            if name.isEmpty {
                var parts: [String] = []
                Self.collectSpokenDescendants(of: index, snapshot, focus, elements: elements, texts: texts, includingStops: true, into: &parts)
                name = parts.joined(separator: ", ")
            }
            if element.role != .switch, element.role != .checkbox, let spokenValue = string(element.value), spokenValue != name {
                value = spokenValue
            }
            // A field without a label is called by its value, or its placeholder when empty:
            // that is its name (rules and reports read names), said once.
            if name.isEmpty, element.role == .textfield {
                if let typed = value {
                    name = typed
                    value = nil
                } else if let placeholder = string(element.placeholder) {
                    name = placeholder
                }
            }
            // With no label, VoiceOver falls back on the image's asset name ("icon_close"),
            // as label.missing's image-name-read says.
            if name.isEmpty, value == nil, let image = string(element.image) { name = image }
        }
        self.name = name
        self.value = value
        role = Self.role(of: element, reader: reader, texts: texts)
        state = Self.state(of: element, role: role, texts: texts)
        hint = string(element.hint)
        usage = UsageHint.of(element, role: role, reader: reader, checkable: FocusRules.checkable(element), actionable: element.isInteractive)
        actions =
            element.actions.isAbsent
            ? []
            : (texts.string(element.actions) ?? "").split(separator: ";").map { Self.spoken($0.trimmingCharacters(in: .whitespaces)) }
                .filter { !$0.isEmpty }
    }

    /// The descendants' words a control without a name of its own says: each one's
    /// content description (and nothing below it), else its text; stops of their own are
    /// passed over with what is inside them (TalkBack), or said too (VoiceOver: what is
    /// inside an accessibility element is part of it).
    static func collectSpokenDescendants(
        of index: Int, _ snapshot: Snapshot, _ focus: FocusRules, elements: [Element], texts: TextTable,
        includingStops: Bool = false, into parts: inout [String]
    ) {
        var pending: [Int] = snapshot.children(of: index).reversed()
        while let next = pending.popLast() {
            let child = elements[next]
            guard focus.reachable[next] || child.frame == nil, includingStops || !focus.focusable[next] else { continue }
            // What TalkBack's tree leaves out says nothing; what is inside it still may.
            if focus.reader == .talkback, child.unimportant {
                pending.append(contentsOf: snapshot.children(of: next).reversed())
                continue
            }
            if !texts.isBlank(child.label), let label = texts.string(child.label) {
                parts.append(spoken(label))
                continue
            }
            if !texts.isBlank(child.text), let text = texts.string(child.text) { parts.append(spoken(text)) }
            pending.append(contentsOf: snapshot.children(of: next).reversed())
        }
    }

    /// Text as it is spoken: a line break is a pause like a space, runs of white space one.
    static func spoken(_ text: String) -> String {
        // Most names have single spaces only: returned as they are.
        let clean = text.withUTF8Bytes { bytes in
            var previousSpace = true
            for byte in bytes {
                let space = byte == 0x20
                if byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0xE2 || (space && previousSpace) { return false }
                previousSpace = space
            }
            return !previousSpace
        }
        if clean { return text }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{2028}" }).joined(separator: " ")
    }

    static func role(of element: Element, reader: ScreenReader, texts: borrowing TextTable) -> SpokenRole? {
        if element.traits.contains(.header) { return .heading }
        switch element.role {
        case .button, .stepper: return .button
        case .switch: return .switch
        case .checkbox: return .checkbox
        case .radio: return .radio
        case .textfield: return .edit
        case .link: return .link
        // TalkBack announces a clickable image as a button (`Role.getRole`: an image button).
        case .image: return element.traits.contains(.button) || (reader == .talkback && element.isInteractive) ? .button : .image
        case .tab: return .tab
        case .slider: return .slider
        case .progress: return .progress
        case .text: return element.traits.contains(.link) ? .link : (element.traits.contains(.button) ? .button : .text)
        case .window, .container, .cell, .other:
            if element.traits.contains(.button) { return .button }
            if element.traits.contains(.link) { return .link }
            // A list or grid is announced as one; a plain scroll view (Android's `ScrollView`,
            // `HorizontalScrollView`, `NestedScrollView`; UIKit's `UIScrollView`) has no role
            // word (TalkBack's `ROLE_SCROLL_VIEW` says nothing).
            guard !element.scrollAxes.isEmpty else { return nil }
            if isScrollView(element.typeName, texts) { return nil }
            return .list
        }
    }

    /// A plain scroll view by its type's name (`…ScrollView`, `XCUIElementTypeScrollView`).
    static func isScrollView(_ type: TextRef, _ texts: borrowing TextTable) -> Bool {
        texts.withBytes(type) { bytes in bytes.count >= 10 && bytes.suffix(10).elementsEqual("ScrollView".utf8) }
    }

    static func state(of element: Element, role: SpokenRole?, texts: TextTable) -> [SpokenState] {
        var state: [SpokenState] = []
        // A switch's state is its checked flag, or (XCUITest) its value "1" / "0".
        var checked = element.checked
        if checked == nil, role == .switch || role == .checkbox {
            switch texts.string(element.value) {
            case "1": checked = true
            case "0": checked = false
            default: break
            }
        }
        if let checked {
            switch role {
            case .switch?: state.append(checked ? .on : .off)
            default: state.append(checked ? .checked : .unchecked)
            }
        }
        if element.traits.contains(.selected) { state.append(.selected) }
        if !element.isEnabled || element.traits.contains(.notEnabled) { state.append(.disabled) }
        return state
    }

    /// The utterance: name, value, role, state and hint, in the reader's words, joined by
    /// ", ". Measured, then written into one string of that size: it is made for every
    /// stop of every audit, and a string grown part by part cost a quarter of a
    /// transcript.
    func speech(_ reader: ScreenReader, order: DescriptionOrder) -> String {
        var length = 0, parts = 0
        forEachPart(reader, order: order) { part in
            length += part.utf8.count
            parts += 1
        }
        guard parts > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length + 2 * (parts - 1)) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            var written = 0, first = true
            forEachPart(reader, order: order) { part in
                if !first {
                    buffer[written] = UInt8(ascii: ",")
                    buffer[written + 1] = UInt8(ascii: " ")
                    written += 2
                }
                first = false
                // Copied whole (byte by byte, this loop was a seventh of a transcript).
                part.withUTF8Bytes { bytes in
                    guard let source = bytes.baseAddress else { return }
                    (base + written).update(from: source, count: bytes.count)
                    written += bytes.count
                }
            }
            return written
        }
    }

    /// Calls `body` with each part of the utterance, in the order it is said: name (with
    /// its value), role and state in `order`, then the hint and the actions.
    private func forEachPart(_ reader: ScreenReader, order: DescriptionOrder, _ body: (String) -> Void) {
        func sayName() {
            if !name.isEmpty { body(name) }
            if let value { body(value) }
        }
        func sayRole() {
            if let role, let word = reader.word(for: role) { body(word) }
        }
        func sayState() {
            for item in state { body(reader.word(for: item)) }
        }
        switch order {
        case .nameRoleState:
            sayName()
            sayRole()
            sayState()
        case .stateNameRole:
            sayState()
            sayName()
            sayRole()
        case .roleNameState:
            sayRole()
            sayName()
            sayState()
        }
        if let hint { body(hint) }
        // Both readers announce custom actions after the rest ("Actions available").
        if !actions.isEmpty { body("actions available") }
    }
}
