/// One accessibility check: a small type that carries its own metadata (``description``)
/// and evaluates one snapshot. Rules are stateless; the same type serves every audit.
public protocol Rule: Sendable {
    /// The results the rule reports, each with its message.
    associatedtype ResultID: RuleResults
    /// The parameters rule sets may give it (``NoParameters`` when it takes none).
    associatedtype Parameters: RuleParameters = NoParameters
    /// Its metadata; its results and parameters come from ``ResultID`` and ``Parameters``
    /// (``RuleDescription/init(for:id:aliases:title:wcag:severity:enabledIn:help:examples:)``).
    static var description: RuleDescription { get }
    /// Appends the rule's findings and incompletes for `context.snapshot` to `context`,
    /// which takes this rule's own results and no other's.
    static func evaluate(_ context: inout RuleContext<ResultID>)
}

/// What one rule reported on one snapshot.
public struct RuleRun: Sendable {
    public var findings: [Finding]
    public var incompletes: [Incomplete]
    /// The budget ran out while the rule ran: its findings may be partial.
    public var stoppedEarly: Bool
    /// Parameters and results used that the description does not declare (see
    /// ``RuleContext/undeclaredNames``).
    public var undeclaredNames: Set<String>
}

extension Rule {
    /// Runs the rule on `snapshot` with a rule set's severity and parameters.
    public static func run(
        on snapshot: Snapshot, severity: Severity? = nil, parameters: [String: JSON] = [:],
        budget: AuditBudget = .unlimited
    ) -> RuleRun {
        var context = RuleContext<ResultID>(
            snapshot: snapshot, description: description, severity: severity ?? description.severity,
            parameters: parameters, budget: budget)
        evaluate(&context)
        return RuleRun(
            findings: context.findings, incompletes: context.incompletes, stoppedEarly: context.stoppedEarly,
            undeclaredNames: context.undeclaredNames)
    }
}

/// What a rule sees while it runs: the shared, read-only snapshot, its resolved
/// parameters and severity, and where its results go. Typed by the rule's results:
/// reporting another rule's result does not compile.
public struct RuleContext<Results: RuleResults> {
    public let snapshot: Snapshot
    public let description: RuleDescription
    /// The severity the rule set gives this rule.
    public let severity: Severity
    public let parameters: [String: JSON]
    public private(set) var findings: [Finding] = []
    public private(set) var incompletes: [Incomplete] = []
    /// Where the findings' evidence is kept, encoded (``EvidenceStore``).
    private let store = EvidenceStore()
    /// The kinds of finding reported so far, the last one first to be tried: a rule mostly
    /// reports one kind, so most findings skip the lookup by name.
    private var kinds: [FindingKind] = []
    private var lastKind = -1

    /// When the audit must stop; rules with long loops ask ``outOfBudget()`` as they go.
    public let budget: AuditBudget
    /// Set once ``outOfBudget()`` said yes: the rule stopped early.
    public private(set) var stoppedEarly = false
    private var checksUntilClock = 0
    /// Parameters and results the rule used that its description does not list (another
    /// rule's, or one left out of `parameters:`): the rules' own example tests require
    /// this to stay empty.
    public private(set) var undeclaredNames: Set<String> = []

    public init(
        snapshot: Snapshot, description: RuleDescription, severity: Severity, parameters: [String: JSON],
        budget: AuditBudget = .unlimited
    ) {
        self.snapshot = snapshot
        self.description = description
        self.severity = severity
        self.parameters = parameters
        self.budget = budget
    }

    /// True when the audit's budget has run out (or its client left): the rule should
    /// return now. Cheap enough for every iteration: the clock is read one call in 256.
    public mutating func outOfBudget() -> Bool {
        if stoppedEarly { return true }
        guard budget.deadline != .max || budget.cancellation != nil else { return false }
        if checksUntilClock > 0 {
            checksUntilClock -= 1
            return false
        }
        checksUntilClock = 255
        if budget.isExhausted { stoppedEarly = true }
        return stoppedEarly
    }

    // MARK: Parameters

    /// The value of one of the rule's parameters: the rule set's, else the default.
    public subscript<Value>(_ parameter: RuleParameter<Value>) -> Value {
        mutating get {
            if !description.parameters.contains(where: { $0.name == parameter.name }) {
                undeclaredNames.insert("parameter \(parameter.name)")
            }
            return parameter.value(in: parameters)
        }
    }

    // MARK: Results

    /// Reports a finding; the message comes from the template of `result`.
    public mutating func report(
        _ resultID: Results, element: Int?, evidence: Evidence,
        severity: Severity? = nil, wcag: [String]? = nil
    ) {
        let kind = self.kind(resultID.rawValue, severity: severity ?? self.severity, wcag: wcag ?? description.wcag)
        #if DEBUG
        // The contract checked where the tests run: a key the rule does not declare.
        for (key, _) in evidence where !description.evidence.contains(key) { undeclaredNames.insert("evidence \(key)") }
        #endif
        findings.append(Finding(kind: kind, element: element, evidence: evidence, in: store))
    }

    /// The kind of a finding of `result` at `severity` and `wcag`: the one made for the
    /// first such finding.
    private mutating func kind(_ result: String, severity: Severity, wcag: [String]) -> FindingKind {
        func matches(_ kind: FindingKind) -> Bool {
            kind.severity == severity && kind.resultID.utf8.count == result.utf8.count && kind.resultID == result && kind.wcag == wcag
        }
        if lastKind >= 0, matches(kinds[lastKind]) { return kinds[lastKind] }
        if let known = kinds.firstIndex(where: matches) {
            lastKind = known
            return kinds[known]
        }
        if description.templates[result] == nil { undeclaredNames.insert("result \(result)") }
        let template = description.templates[result] ?? description.titleTemplate
        let kind = FindingKind(ruleID: description.id, resultID: result, severity: severity, wcag: wcag, messageSource: .template(template))
        lastKind = kinds.count
        kinds.append(kind)
        return kind
    }

    /// True when the snapshot knows `capability`; else reports the snapshot incomplete —
    /// `what` names what the capture lacks and what therefore went unjudged — and the rule
    /// should return: a rule that cannot see its input never passes in silence.
    public mutating func requires(_ capability: SnapshotCapabilities, _ what: String) -> Bool {
        if snapshot.capabilities.contains(capability) { return true }
        cannotJudge("this capture (\(snapshot.dialect.rawValue)) \(what)")
        return false
    }

    /// Reports that the rule could not judge `element` (or the snapshot, when `nil`).
    public mutating func cannotJudge(_ reason: String, element: Int? = nil) {
        incompletes.append(Incomplete(ruleID: description.id, reason: reason, element: element))
    }
}
