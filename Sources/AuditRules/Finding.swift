/// Structured facts a rule measured, in a stable order (`ratio`, `required`, …).
/// Messages are made from them late, by the rule's message templates.
public typealias Evidence = [(EvidenceKey, JSON)]

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
    /// Where the message comes from: kept as the template and filled from the evidence
    /// only when the message is written (reports write it straight into their bytes).
    public var messageSource: MessageSource

    /// A finding's message: a rule's template (`${key}` filled from the evidence) or a
    /// fixed text (custom XPath rules).
    public enum MessageSource: Sendable {
        case template(MessageTemplate)
        case literal(String)
    }

    public init(
        ruleID: String, resultID: String, severity: Severity, wcag: [String], element: Int?,
        evidence: Evidence, messageSource: MessageSource
    ) {
        self.ruleID = ruleID
        self.resultID = resultID
        self.severity = severity
        self.wcag = wcag
        self.element = element
        self.evidence = evidence
        self.messageSource = messageSource
    }

    /// The message, filled in from the template and the evidence.
    public var message: String {
        var bytes: [UInt8] = []
        appendMessage(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the message as UTF-8.
    public func appendMessage(to out: inout [UInt8]) {
        switch messageSource {
        case .template(let template): template.append(evidence, to: &out)
        case .literal(let text): out.append(contentsOf: text.utf8)
        }
    }

    /// The value of one piece of evidence.
    public func evidence(_ key: String) -> JSON? {
        // Keys of another length are passed over without a string comparison (comparing two
        // different small strings is not free); entries are read in place (`first(where:)`
        // hands each to its closure by value: a retain and a release of key and value).
        let length = key.utf8.count
        for index in evidence.indices where evidence[index].0.rawValue.utf8.count == length && evidence[index].0.rawValue == key {
            return evidence[index].1
        }
        return nil
    }

    /// The value of one piece of evidence.
    public func evidence(_ key: EvidenceKey) -> JSON? { evidence(key.rawValue) }
}

/// A rule that could not judge: never a pass (docs/findings.md, `incomplete`).
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
