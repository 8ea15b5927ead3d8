/// Structured facts a rule measured, in a stable order (`ratio`, `required`, …).
/// Messages are made from them late, by the rule's message templates.
public typealias Evidence = [(String, JSON)]

/// One result of one rule on one element (or on the snapshot as a whole).
public struct Finding: Sendable {
    public var ruleID: String
    /// Which of the rule's outcomes this is (`low-contrast`, `below-platform-minimum`, …);
    /// picks the message template.
    public var resultID: String
    public var severity: Severity
    public var wcag: [String]
    /// The element's index, `nil` for a finding about the snapshot itself.
    public var element: Int?
    public var evidence: Evidence
    /// The message, filled in from the template and the evidence.
    public var message: String

    public init(ruleID: String, resultID: String, severity: Severity, wcag: [String], element: Int?,
                evidence: Evidence, message: String) {
        self.ruleID = ruleID
        self.resultID = resultID
        self.severity = severity
        self.wcag = wcag
        self.element = element
        self.evidence = evidence
        self.message = message
    }

    /// The value of one piece of evidence.
    public func evidence(_ key: String) -> JSON? { evidence.first { $0.0 == key }?.1 }
}

/// A rule that could not judge: never a pass (SPEC §3 `incomplete`).
public struct Incomplete: Sendable {
    public var ruleID: String
    public var reason: String
    /// The element it could not judge, `nil` for the whole snapshot.
    public var element: Int?

    public init(ruleID: String, reason: String, element: Int?) {
        self.ruleID = ruleID
        self.reason = reason
        self.element = element
    }
}
