/// Text folded for comparing what is shown with what is said: lower case, letters and
/// digits only, words joined by single spaces, and — unless `keepingNumbers` — words of
/// digits alone dropped (a badge's "32" is not part of a label). ASCII text (most names)
/// is folded byte by byte; other text through Unicode's properties. One folding serves the
/// transcript rules (label-in-name, unread-text).
enum SpokenWords {
    static func fold<Bytes: Collection<UInt8>>(_ bytes: Bytes, keepingNumbers: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var word: [UInt8] = []
        func flush() {
            guard !word.isEmpty else { return }
            if keepingNumbers || !word.allSatisfy({ (0x30...0x39).contains($0) }) {
                if !out.isEmpty { out.append(0x20) }
                out += word
            }
            word.removeAll(keepingCapacity: true)
        }
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            for scalar in String(decoding: bytes, as: UTF8.self).lowercased().unicodeScalars {
                if scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) {
                    word += Array(String(scalar).utf8)
                } else {
                    flush()
                }
            }
            flush()
            return out
        }
        for byte in bytes {
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            if (0x61...0x7A).contains(lower) || (0x30...0x39).contains(lower) { word.append(lower) } else { flush() }
        }
        flush()
        return out
    }

    /// Whether `needle` occurs in `haystack` (folded text: UTF-8, so a match of whole
    /// characters).
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
