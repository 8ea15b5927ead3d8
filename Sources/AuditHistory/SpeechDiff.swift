/// What changed between two transcripts' speech, stop by stop: the stops of `before` not
/// in a longest common subsequence with `after` are removed, those of `after` added — what
/// a diff of the two transcripts, one stop a line, shows.
///
/// Bounded: each stop is hashed once and the table compares numbers (a stop's speech can
/// be long: 1,000 long stops against 1,000 cost 11–16 s a query when each comparison read
/// the text), the common start and end are taken off first, and the table is one flat
/// array of at most 1,000 × 1,000 cells (the journal keeps at most 1,000 stops an audit);
/// past ``maxCells`` the stops are compared as sets instead.
struct SpeechDiff {
    let removed: [String]
    let added: [String]

    /// The most cells of the longest-common-subsequence table (4 MB of `Int32`).
    static let maxCells = 1_000_000

    init(before: [String], after: [String]) {
        // Each distinct stop a number.
        var numbers: [String: Int32] = [:]
        func number(_ stop: String) -> Int32 {
            if let known = numbers[stop] { return known }
            let next = Int32(numbers.count)
            numbers[stop] = next
            return next
        }
        let a = before.map(number), b = after.map(number)
        // The common start and end are unchanged.
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
            endA -= 1
            endB -= 1
        }
        let n = endA - start, m = endB - start
        guard n > 0, m > 0 else {
            removed = Array(before[start..<endA])
            added = Array(after[start..<endB])
            return
        }
        guard n * m <= Self.maxCells else {
            // Too many to align: what one side has more of than the other.
            var counts: [Int32: Int] = [:]
            for value in b[start..<endB] { counts[value, default: 0] += 1 }
            var removed: [String] = []
            for index in start..<endA {
                if let count = counts[a[index]], count > 0 { counts[a[index]] = count - 1 } else { removed.append(before[index]) }
            }
            counts = [:]
            for value in a[start..<endA] { counts[value, default: 0] += 1 }
            var added: [String] = []
            for index in start..<endB {
                if let count = counts[b[index]], count > 0 { counts[b[index]] = count - 1 } else { added.append(after[index]) }
            }
            self.removed = removed
            self.added = added
            return
        }
        // lengths[i * (m + 1) + j]: the longest common subsequence of the middle parts
        // from i and from j.
        let width = m + 1
        var lengths = [Int32](repeating: 0, count: (n + 1) * width)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i * width + j] =
                    a[start + i] == b[start + j] ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var removed: [String] = [], added: [String] = []
        var i = 0, j = 0
        while i < n, j < m {
            if a[start + i] == b[start + j] {
                i += 1
                j += 1
            } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                removed.append(before[start + i])
                i += 1
            } else {
                added.append(after[start + j])
                j += 1
            }
        }
        removed += before[(start + i)..<endA]
        added += after[(start + j)..<endB]
        self.removed = removed
        self.added = added
    }
}
