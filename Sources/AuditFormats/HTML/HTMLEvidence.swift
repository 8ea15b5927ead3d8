import AuditCore

/// A finding's evidence as a definition list: colours as swatches beside their hex, numbers
/// as numbers, everything else as text. Formatted here, late, from the structured values.
package enum HTMLEvidence {
    package static func render(_ evidence: [(String, JSON)]) -> String {
        guard !evidence.isEmpty else { return "" }
        var out = "<dl class=\"evidence\">"
        for (key, value) in evidence {
            out += "<div><dt>\(HTMLText.escape(key))</dt><dd>\(describe(value))</dd></div>"
        }
        return out + "</dl>"
    }

    package static func describe(_ value: JSON) -> String {
        switch value {
        case .string(let text):
            if let swatch = swatch(text) { return swatch }
            return HTMLText.escape(text)
        case .int(let number): return String(number)
        case .number(let number): return HTMLText.number(number)
        case .bool(let flag): return flag ? "yes" : "no"
        case .null: return "—"
        case .array(let items): return items.map(describe).joined(separator: ", ")
        case .object(let members): return members.map { "\(HTMLText.escape($0.0)): \(describe($0.1))" }.joined(separator: "; ")
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA` drawn as a square of that colour beside its text; the
    /// square is decoration (the hex is the information), so it is hidden from the
    /// accessibility tree.
    package static func swatch(_ text: String) -> String? {
        let hex = text.utf8
        guard hex.first == UInt8(ascii: "#"), hex.count == 7 || hex.count == 9,
            hex.dropFirst().allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) })
        else { return nil }
        return "<span class=\"swatch\" style=\"background:\(text)\" aria-hidden=\"true\"></span><code>\(text)</code>"
    }
}
