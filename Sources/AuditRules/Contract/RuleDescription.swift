/// Everything about a rule that is not its logic: identity, WCAG mapping, default
/// severity, parameters, help, message templates and examples. The examples are run as
/// tests and printed in docs/rules.md.
public struct RuleDescription: Sendable {
    public var id: String
    /// The ids the rule was known by before (`voiceover.traits` for `screen-reader.role`):
    /// rule sets, suppressions and `auditctl watch --rule` accept them, and the first is what
    /// its fingerprints are made of, so a finding keeps its identity across the rename.
    public var aliases: [String]
    public var title: String {
        didSet { titleTemplate = MessageTemplate(title) }
    }
    /// WCAG 2.2 success criteria (`1.4.3`).
    public var wcag: [String]
    public var severity: Severity
    /// The shipped rule sets that run the rule unless told otherwise: declared here, once,
    /// and read by rule sets that say `"defaults"` (Rules/*.json).
    public var enabledIn: Set<DefaultRuleSet>
    /// One paragraph: what it checks, why it matters, how to fix.
    public var help: String
    public var parameters: [ParameterDescription]
    /// Result id → message template; `${key}` is replaced by the evidence value.
    public var messages: [String: String] {
        didSet { templates = messages.mapValues(MessageTemplate.init) }
    }
    /// The templates of ``messages``, compiled once.
    public private(set) var templates: [String: MessageTemplate]
    /// The message of a result without a template: the title.
    public private(set) var titleTemplate: MessageTemplate
    /// Snapshots that must trigger the rule (on the elements named) and must not.
    public var examples: [RuleExample]
    /// The evidence keys its findings may carry, declared by its results' type
    /// (``RuleResults/evidence``).
    public var evidence: Set<EvidenceKey>

    /// A description from its results' and parameters' types (rules use
    /// ``init(for:id:aliases:title:wcag:severity:enabledIn:help:examples:)``, which takes them
    /// from the rule): its messages are those of `results`, its parameters those its
    /// ``RuleParameters`` type declares, in their order.
    init<Results: RuleResults>(
        id: String, aliases: [String] = [], title: String, wcag: [String], severity: Severity, enabledIn: Set<DefaultRuleSet>, help: String,
        parameters: (any RuleParameters.Type)? = nil, results: Results.Type, examples: [RuleExample]
    ) {
        self.aliases = aliases
        let messages = Dictionary(Results.allCases.map { ($0.rawValue, $0.message) }, uniquingKeysWith: { first, _ in first })
        self.id = id
        self.title = title
        self.titleTemplate = MessageTemplate(title)
        self.wcag = wcag
        self.severity = severity
        self.enabledIn = enabledIn
        self.help = help
        self.parameters = parameters?.declared.map(\.parameterDescription) ?? []
        self.messages = messages
        self.templates = messages.mapValues(MessageTemplate.init)
        self.examples = examples
        self.evidence = Results.evidence
    }

    /// A rule's description, its results and parameters derived from the rule's own types
    /// (``Rule/ResultID``, ``Rule/Parameters``): nothing is written twice.
    public init<R: Rule>(
        for rule: R.Type, id: String, aliases: [String] = [], title: String, wcag: [String], severity: Severity, enabledIn: Set<DefaultRuleSet>,
        help: String, examples: [RuleExample]
    ) {
        self.init(
            id: id, aliases: aliases, title: title, wcag: wcag, severity: severity, enabledIn: enabledIn, help: help,
            parameters: R.Parameters.declared.isEmpty ? nil : R.Parameters.self, results: R.ResultID.self, examples: examples)
    }

    /// The W3C Understanding page of the first criterion, or the WCAG 2.2 overview (used
    /// as SARIF `helpUri`; the rule's own page is docs/rules.md).
    public var helpURL: String {
        wcag.first.flatMap(WCAGCriteria.understandingURL) ?? "https://www.w3.org/TR/WCAG22/"
    }
}

/// The groups of rules a rule set can take as its defaults (`"defaults": "wcag"`): WCAG's
/// own checks, run on every platform, and each platform's guidelines. A rule in none is
/// opt-in: a rule set names it.
public enum DefaultRuleSet: String, Sendable, CaseIterable, Comparable {
    /// WCAG 2.2 AA's checks (`wcag22-aa`, and every set that extends it).
    case wcag
    /// Apple's Human Interface Guidelines and VoiceOver (`ios-default`).
    case ios
    /// Material Design and TalkBack (`android-default`).
    case android

    public static func < (lhs: DefaultRuleSet, rhs: DefaultRuleSet) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A rule parameter: name, kind, default and help.
public struct ParameterDescription: Sendable {
    public enum Kind: String, Sendable {
        case number, boolean, string, strings, severity
    }

    public var name: String
    public var kind: Kind
    public var defaultValue: JSON
    public var help: String

    public init(_ name: String, _ kind: Kind, default defaultValue: JSON, help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
    }

    /// `nil` when `value` fits this parameter, else why not.
    public func problem(with value: JSON) -> String? {
        switch (kind, value) {
        case (.number, .int), (.number, .number): return nil
        case (.boolean, .bool): return nil
        case (.string, .string): return nil
        case (.strings, .array(let items)):
            return items.allSatisfy { if case .string = $0 { true } else { false } } ? nil : "expected a list of strings"
        case (.severity, .string(let text)):
            return Severity(rawValue: text) == nil ? "expected error, warning or notice" : nil
        default:
            return "expected a \(kind.rawValue)"
        }
    }
}

/// One example snapshot for a rule: the body of a native snapshot (inside a white
/// 390×844 window) plus what must happen.
public struct RuleExample: Sendable {
    /// Element markup placed inside `<element id="root" role="window" … background="#FFFFFF">`.
    public var markup: String
    /// Optional `<settings …/>` markup.
    public var settings: String
    /// The findings the rule must report, one entry each: the element's id (`<snapshot>`
    /// for the snapshot), or `id:result` to say which result; an element reported twice is
    /// listed twice. Empty for a non-triggering example. The example test matches findings
    /// to entries one to one, so a finding reported twice fails.
    public var triggers: [String]
    /// Ids of elements the rule must report as incomplete (`<snapshot>` for the snapshot).
    public var incomplete: [String]
    /// Parameter overrides for this example, typed by the rule's own parameters
    /// (`Parameter.minimum.set(40)`), as a rule set would give them.
    public var overrides: [ParameterOverride]
    /// ``overrides`` as a rule set's parameters.
    public var parameters: [String: JSON] { Dictionary(overrides.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }
    /// The severity every reported finding must have, when the example says.
    public var severity: Severity?
    /// A full document instead of `markup` (for other dialects).
    public var document: String?
    /// The screen's pixels, for rules that read colours from a screenshot.
    public var screenshot: ExampleScreenshot?
    public var line: UInt

    public init(
        _ markup: String, settings: String = "", triggers: [String] = [], incomplete: [String] = [],
        overrides: [ParameterOverride] = [], severity: Severity? = nil, document: String? = nil,
        screenshot: ExampleScreenshot? = nil, line: UInt = #line
    ) {
        self.markup = markup
        self.settings = settings
        self.triggers = triggers
        self.incomplete = incomplete
        self.overrides = overrides
        self.severity = severity
        self.document = document
        self.screenshot = screenshot
        self.line = line
    }

    /// The complete snapshot XML.
    public var xml: String {
        if let document { return document }
        return """
            <snapshot version="1" platform="ios" app="com.example" screen="Example" width="390" height="844">
            \(settings)
            <element id="root" role="window" frame="0,0,390,844" background="#FFFFFF">
            \(markup)
            </element>
            </snapshot>
            """
    }
}
