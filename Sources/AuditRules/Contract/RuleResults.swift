/// The results one rule can report: an enum per rule (`TargetSizeRule.ResultID`) whose raw
/// values are the result ids in reports (`too-small`) and whose ``message`` is each one's
/// template. A result the rule does not declare cannot be written: it does not compile.
public protocol RuleResults: RawRepresentable<String>, CaseIterable, Sendable {
    /// The message template; `${key}` is replaced by the finding's evidence value.
    var message: String { get }
}
