/// The `a11y-ignore` lists of one snapshot, read once per audit: each list split and its
/// globs compiled a single time, and each element linked to its nearest ancestor-or-self
/// that has a list. A finding is then matched against its own chain of lists only, and at
/// most ``maximumPatterns`` patterns in all — a megabyte of patterns on one element costs one
/// pass when the audit starts, not one per finding (issue 26).
struct ElementSuppressions: Sendable {
    /// Patterns honoured per element's list; the rest are ignored (docs/snapshot-format.md).
    static let maximumPatternsPerElement = 64
    /// Patterns looked at for one finding along its chain of ancestors.
    static let maximumPatterns = 256
    /// Longest pattern honoured, in bytes: a rule id or glob is short.
    static let maximumPatternBytes = 200

    /// For each element, its nearest ancestor-or-self with a list, or -1.
    private let nearest: [Int32]
    /// The compiled lists, by element.
    private let lists: [Int: [Glob]]
    private let snapshot: Snapshot

    init(_ snapshot: Snapshot) {
        let elements = snapshot.elements
        var nearest = [Int32](repeating: -1, count: elements.count)
        var lists: [Int: [Glob]] = [:]
        for index in elements.indices {
            let parent = Int(elements[index].parent)
            let inherited = parent >= 0 ? nearest[parent] : -1
            guard !elements[index].ignoredRules.isAbsent else {
                nearest[index] = inherited
                continue
            }
            var globs: [Glob] = []
            snapshot.texts.withBytes(elements[index].ignoredRules) { bytes in
                for token in bytes.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") }) {
                    if globs.count >= Self.maximumPatternsPerElement { break }
                    guard token.count <= Self.maximumPatternBytes else { continue }
                    let glob = Glob(String(decoding: token, as: UTF8.self))
                    if !globs.contains(glob) { globs.append(glob) }
                }
            }
            lists[index] = globs
            nearest[index] = Int32(index)
        }
        self.nearest = nearest
        self.lists = lists
        self.snapshot = snapshot
    }

    /// True when an `a11y-ignore` list of `index` or an ancestor names `ruleID`.
    func suppresses(_ ruleID: String, at index: Int) -> Bool {
        // A rule's former ids (`voiceover.traits`) are matched too.
        let formerIDs = BuiltInRules.names(of: ruleID).dropFirst()
        var current = Int(nearest[index])
        var looked = 0
        while current >= 0, looked < Self.maximumPatterns {
            for glob in lists[current] ?? [] {
                if glob.matches(ruleID) || formerIDs.contains(where: glob.matches) { return true }
                looked += 1
                if looked >= Self.maximumPatterns { return false }
            }
            let parent = Int(snapshot.elements[current].parent)
            current = parent >= 0 ? Int(nearest[parent]) : -1
        }
        return false
    }
}
