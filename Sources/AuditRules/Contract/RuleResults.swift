/// The results one rule can report: an enum per rule (`TargetSizeRule.ResultID`) whose raw
/// values are the result ids in reports (`too-small`) and whose ``message`` is each one's
/// template. A result the rule does not declare cannot be written: it does not compile.
public protocol RuleResults: RawRepresentable<String>, CaseIterable, Sendable {
    /// The message template; `${key}` is replaced by the finding's evidence value.
    var message: String { get }
    /// The evidence keys the rule's findings may carry beyond those its messages name
    /// (ATF's checks declare their `KEY_*` next to their result ids): with the messages'
    /// keys, all the keys it may report — one it reports undeclared fails its examples.
    static var moreEvidence: [EvidenceKey] { get }
}

extension RuleResults {
    public static var moreEvidence: [EvidenceKey] { [] }

    /// Every evidence key the rule declares: its messages' and ``moreEvidence``.
    public static var evidence: Set<EvidenceKey> {
        var keys = Set(moreEvidence)
        for result in allCases { keys.formUnion(MessageTemplate(result.message).placeholders) }
        return keys
    }
}
