/// Text folded for comparing what is shown with what is said: lower case, letters and
/// digits only, words joined by single spaces, and — unless `keepingNumbers` — words of
/// digits alone dropped (a badge's "32" is not part of a label). ASCII text (most names)
/// is folded byte by byte; other text through Unicode's properties. One folding serves the
/// transcript rules (label-in-name, unread-text).
enum SpokenWords {
    static func fold<Bytes: Collection<UInt8>>(_ bytes: Bytes, keepingNumbers: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        fold(bytes, keepingNumbers: keepingNumbers, into: &out)
        return out
    }

    /// ``fold(_:keepingNumbers:)`` into `out`, replacing what it held (a buffer reused
    /// for every text of a screen). ASCII words are written straight into `out` and a
    /// word of digits taken back, with its space, when numbers are dropped.
    static func fold<Bytes: Collection<UInt8>>(_ bytes: Bytes, keepingNumbers: Bool = false, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(bytes.count)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            var word: [UInt8] = []
            func flush() {
                guard !word.isEmpty else { return }
                if keepingNumbers || !word.allSatisfy({ (0x30...0x39).contains($0) }) {
                    if !out.isEmpty { out.append(0x20) }
                    out += word
                }
                word.removeAll(keepingCapacity: true)
            }
            for scalar in String(decoding: bytes, as: UTF8.self).lowercased().unicodeScalars {
                if scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) {
                    word += Array(String(scalar).utf8)
                } else {
                    flush()
                }
            }
            flush()
            return
        }
        var inWord = false, digitsOnly = true
        // Where the word being read starts in `out`, its separating space included.
        var wordStart = 0
        for byte in bytes {
            let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
            let isDigit = lower &- 0x30 < 10
            if isDigit || lower &- 0x61 < 26 {
                if !inWord {
                    inWord = true
                    digitsOnly = true
                    wordStart = out.count
                    if !out.isEmpty { out.append(0x20) }
                }
                digitsOnly = digitsOnly && isDigit
                out.append(lower)
            } else if inWord {
                inWord = false
                if digitsOnly, !keepingNumbers { out.removeLast(out.count - wordStart) }
            }
        }
        if inWord, digitsOnly, !keepingNumbers { out.removeLast(out.count - wordStart) }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}
