/// Helpers for judging accessible names.
public enum LabelText {
    /// Whether assistive technology has a name to announce for an element: its label or
    /// text (a text field's value or placeholder), else — for containers and Android
    /// nodes, whose names come from their content — any text shown or announced in its
    /// subtree. Checked for every element by the label rules, so no string is built.
    public static func hasName(of index: Int, in snapshot: Snapshot) -> Bool {
        if !snapshot.accessibleNameRef(of: index).isAbsent { return true }
        let elements = snapshot.elements
        let element = elements[index]
        let texts = snapshot.texts
        if element.role == .textfield, !texts.isBlank(element.value) || !texts.isBlank(element.placeholder) { return true }
        let readsChildren =
            switch element.role {
            case .cell, .container, .other: true
            default: snapshot.capabilities.contains(.namesFromContent) || element.firstChild >= 0
            }
        guard readsChildren else { return false }
        var next = index + 1
        while next < elements.count, elements[next].depth > element.depth {
            if !snapshot.accessibleNameRef(of: next).isAbsent || !snapshot.visibleTextRef(of: next).isAbsent { return true }
            next += 1
        }
        return false
    }

    public static func isBlank(_ text: String) -> Bool { text.allSatisfy { $0.isWhitespace } }

    /// The form in which two labels are compared: white space trimmed, lower-cased.
    /// ASCII labels are folded byte by byte; others through `String`.
    public static func comparisonKey(_ ref: TextRef, of snapshot: Snapshot) -> [UInt8] {
        snapshot.texts.withBytes(ref) { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                return Array(String(decoding: bytes, as: UTF8.self).trimming().lowercased().utf8)
            }
            return bytes.trimmingASCIIWhitespace().map { $0 &- UInt8(ascii: "A") < 26 ? $0 | 0x20 : $0 }
        }
    }

    /// The FNV-1a hash of ``comparisonKey(_:of:)``, `nil` when the key is empty. Asked of
    /// every target, so ASCII labels are hashed as they are folded, with no key built.
    public static func comparisonHash(_ ref: TextRef, of snapshot: Snapshot) -> UInt64? {
        snapshot.texts.withBytes(ref) { bytes -> UInt64? in
            var hash = FNV1a()
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                let key = comparisonKey(ref, of: snapshot)
                guard !key.isEmpty else { return nil }
                key.withUnsafeBufferPointer { hash.add($0) }
                return hash.value
            }
            // Trimmed by index, not sliced: a slice retained the snapshot's text storage,
            // which rules on the other thread retain too (a contended count).
            let trimmed = bytes.asciiWhitespaceTrimmedIndices()
            guard !trimmed.isEmpty else { return nil }
            for index in trimmed {
                let byte = bytes[index]
                hash.add(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
            }
            return hash.value
        }
    }

    /// A character of the private-use areas icon fonts draw from: U+E000–U+F8FF and planes
    /// 15–16. ``holdsPrivateUseGlyph(_:)`` asks the same of UTF-8 bytes in place.
    public static func isPrivateUse(_ scalar: Unicode.Scalar) -> Bool {
        (0xE000...0xF8FF).contains(scalar.value) || scalar.value >= 0xF0000
    }

    /// True when UTF-8 `bytes` hold a character of the private-use areas icon fonts draw
    /// from: U+E000–U+F8FF (lead byte EE, or EF before a byte below A4) and planes 15–16
    /// (lead F3 before B0 or more, or F4).
    public static func holdsPrivateUseGlyph(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0xEE || byte == 0xF4 { return true }
            if byte == 0xEF || byte == 0xF3, index + 1 < bytes.endIndex {
                let next = bytes[index + 1]
                if (byte == 0xEF && next < 0xA4) || (byte == 0xF3 && next >= 0xB0) { return true }
            }
            index += 1
        }
        return false
    }

    /// Lowercased words of a label, split on anything that is not a letter or digit.
    public static func words(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII fast path: bytes, no Unicode property look-ups.
            var words: [String] = []
            var current: [UInt8] = []
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte | 0x20)
                default:
                    if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true) }
                }
            }
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            return words
        }
        return text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }
}
