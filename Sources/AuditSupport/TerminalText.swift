/// Text from a snapshot (ids, labels, app names, messages that quote them) made safe for
/// human output, as compilers print what they quote: every control character — newline,
/// carriage return, escape, the C1 controls — and every bidirectional override or isolate
/// is written as a visible `\n`, `\r`, `\t` or `\u{…}` escape. A label can then neither
/// start a forged compiler-style line (`file.xml:1:1: error: …`) or a GitHub Actions
/// workflow command (`::error file=…`), nor recolour the terminal or reorder what it shows.
public enum TerminalText {
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional embeddings, overrides and isolates, and the marks.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        // Line and paragraph separators end a line in some terminals and editors.
        case 0x2028, 0x2029: true
        default: false
        }
    }
}
