/// What two snapshots or more of a run cannot judge for one snapshot-wide reason — a capture
/// format's limit ("uiautomator carries no fonts: Dynamic Type not judged") — which the text
/// and HTML formats say once for the run, with the snapshots it applies to, rather than on
/// every screen (JSON and SARIF keep it per snapshot). Reasons that differ only in their
/// numbers ("26 text elements not judged", "9 icons …") are one.
package struct SharedIncompletes {
    /// One reason said once: its rule, its wording with its numbers as `N`, and the files.
    package struct Entry {
        package let rule: String
        package let reason: String
        package let files: [String]
    }

    /// In the order first given.
    package let entries: [Entry]
    private let keys: Set<String>

    package init(_ results: [SnapshotResult]) {
        var order: [String] = []
        var found: [String: (rule: String, reason: String, files: [String])] = [:]
        for result in results {
            var seen = Set<String>()
            for item in result.incomplete where item.element == nil && item.line == nil {
                let key = Self.key(item.rule, item.reason)
                guard seen.insert(key).inserted else { continue }
                if found[key] == nil {
                    order.append(key)
                    found[key] = (item.rule, String(key.split(separator: "\u{1F}", maxSplits: 1).last ?? ""), [])
                }
                found[key]?.files.append(result.file)
            }
        }
        let shared = order.filter { (found[$0]?.files.count ?? 0) >= 2 }
        keys = Set(shared)
        entries = shared.compactMap { key in found[key].map { Entry(rule: $0.rule, reason: $0.reason, files: $0.files) } }
    }

    /// Whether `item` is said once for the run rather than with its snapshot.
    package func contains(_ item: ReportIncomplete) -> Bool {
        item.element == nil && item.line == nil && keys.contains(Self.key(item.rule, item.reason))
    }

    /// A snapshot-wide reason with its numbers as `N` ("no colours in this dialect
    /// (uiautomator); N text elements not judged"), keyed with its rule.
    static func key(_ rule: String, _ reason: String) -> String {
        var normalized = ""
        var inNumber = false
        for character in reason {
            if character.isASCII, character.isNumber {
                if !inNumber { normalized.append("N") }
                inNumber = true
            } else {
                normalized.append(character)
                inNumber = false
            }
        }
        return rule + "\u{1F}" + normalized
    }
}
