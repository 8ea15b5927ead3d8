/// Text for XML and HTML content and attribute values, shared by the JUnit and HTML
/// formats: `& < > "` escaped; characters XML 1.0 forbids (and C1 controls, which a label
/// may use to forge output) as `?`; line feeds and tabs kept as character references
/// (`&#10;`, for JUnit's messages) or flattened to spaces (HTML).
package enum MarkupText {
    package enum Breaks { case references, spaces }

    package static func escape(_ text: String, breaks: Breaks) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += breaks == .references ? "&#10;" : " "
            case "\t": out += breaks == .references ? "&#9;" : " "
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "?"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
