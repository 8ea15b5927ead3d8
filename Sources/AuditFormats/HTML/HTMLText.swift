import AuditCore

/// Escaping and small pieces of markup shared by the HTML report's parts.
package enum HTMLText {
    /// Text for element content and attribute values (line breaks as spaces).
    package static func escape(_ text: String) -> String { MarkupText.escape(text, breaks: .spaces) }

    /// Prose with `code` spans (the rules' help): escaped, each backtick pair a `<code>`
    /// element instead of raw backticks.
    package static func prose(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return escape(text) }
        var out = ""
        for (offset, part) in parts.enumerated() {
            let escaped = escape(String(part))
            // Odd parts are inside backticks; an unpaired last one is plain text.
            if offset % 2 == 1, offset < parts.count - 1 || parts.count % 2 == 1 {
                out += "<code>\(escaped)</code>"
            } else {
                out += (offset % 2 == 1 ? "`" : "") + escaped
            }
        }
        return out
    }

    /// A number as reports print it (`12`, `4.5`, `2.913`).
    package static func number(_ value: Double) -> String { value.formattedForReport }

    /// A message as people read it: sizes given with two or three decimals ("Target
    /// 102.857×38.857 dp") cut to one ("102.8×38.8 dp"). Cut, not rounded, so that a size
    /// under a minimum never reads as the minimum (47.96 reads 47.9, not 48.0); ratios and
    /// other numbers are left as the rule wrote them. The report's JSON keeps every digit.
    package static func readable(_ message: String) -> String {
        message.replacing(/([0-9]+)\.([0-9])[0-9]+(?=×| dp| pt| px)/) { match in "\(match.1).\(match.2)" }
    }

    /// The word, and an icon that does not rely on colour, for a severity.
    package static func severityLabel(_ severity: Severity) -> String {
        "<span class=\"sev sev-\(severity.rawValue)\"><span class=\"icon\" aria-hidden=\"true\">\(icon(severity))</span> \(severity.rawValue)</span>"
    }

    /// The shapes of the drawing's markers: a square, a diamond, a circle.
    package static func icon(_ severity: Severity) -> String {
        switch severity {
        case .error: "■"
        case .warning: "◆"
        case .notice: "●"
        }
    }

    /// "3 errors", "1 warning".
    package static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}
