/// What changed between two transcripts' speech, stop by stop: the stops of `before` not
/// in a longest common subsequence with `after` are removed, those of `after` added — what
/// a diff of the two transcripts, one stop a line, shows. Quadratic in the stops (the
/// journal keeps at most 1,000 per audit).
struct SpeechDiff {
    let removed: [String]
    let added: [String]

    init(before: [String], after: [String]) {
        let n = before.count, m = after.count
        // lengths[i][j]: the longest common subsequence of before[i...] and after[j...].
        var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = before[i] == after[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var removed: [String] = [], added: [String] = []
        var i = 0, j = 0
        while i < n, j < m {
            if before[i] == after[j] {
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                removed.append(before[i])
                i += 1
            } else {
                added.append(after[j])
                j += 1
            }
        }
        removed += before[i...]
        added += after[j...]
        self.removed = removed
        self.added = added
    }
}
