/// Levenshtein distance, for "did you mean …?" suggestions.
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The candidate closest to `word` within `limit` edits.
    public static func closest(to word: String, among candidates: [String], limit: Int) -> String? {
        candidates.map { ($0, between(word, $0)) }.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }
}
