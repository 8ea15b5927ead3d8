/// A named, resolved selection of rules: which run, at what severity, with which
/// parameters, what is suppressed, and any custom XPath rules (docs/findings.md, "Rules and rule sets").
public struct RuleSet: Sendable {
    /// One enabled rule with its settings.
    public struct Entry: Sendable {
        public let rule: any Rule.Type
        public var severity: Severity
        public var parameters: [String: JSON]

        /// The rule's id, kept: every audit asks it of every entry, and a rule's
        /// description is a large value to copy for it.
        public let id: String

        public init(rule: any Rule.Type, severity: Severity, parameters: [String: JSON]) {
            self.rule = rule
            self.severity = severity
            self.parameters = parameters
            id = rule.description.id
        }
    }

    /// Suppress findings of rules matching `rule` on elements whose id matches `element`
    /// and/or on screens matching `screen`.
    public struct Suppression: Sendable {
        public var rule: Glob
        public var element: Glob?
        public var screen: Glob?
        public var reason: String?

        public func matches(ruleID: String, elementID: String?, screen: String?) -> Bool {
            // A rule's former ids match too: a suppression written before a rename holds.
            guard rule.matches(ruleID) || BuiltInRules.names(of: ruleID).dropFirst().contains(where: rule.matches) else { return false }
            if let element, !element.matches(elementID ?? "") { return false }
            if let pattern = self.screen, !pattern.matches(screen ?? "") { return false }
            return true
        }
    }

    public var name: String
    public var summary: String
    /// Where it was read from.
    public var file: String?
    public var extends: String?
    /// Enabled rules, ordered by id (kept so: the engine ranks findings by an entry's place).
    public private(set) var entries: [Entry]
    public var suppressions: [Suppression]
    public var customRules: [XPathRule]

    public init(
        name: String, summary: String = "", file: String? = nil, extends: String? = nil, entries: [Entry],
        suppressions: [Suppression] = [], customRules: [XPathRule] = []
    ) {
        self.name = name
        self.summary = summary
        self.file = file
        self.extends = extends
        self.entries = entries.sorted { $0.id < $1.id }
        self.suppressions = suppressions
        self.customRules = customRules
    }

    /// Every built-in rule at its default severity and parameters.
    public static var allBuiltIn: RuleSet {
        RuleSet(
            name: "all", summary: "every built-in rule with its defaults",
            entries: BuiltInRules.all.map { Entry(rule: $0, severity: $0.description.severity, parameters: [:]) })
    }

    /// This set with `rules` added at their default severity, those it runs already kept
    /// as they are.
    public func including(_ rules: [any Rule.Type]) -> RuleSet {
        var copy = self
        for rule in rules where !copy.entries.contains(where: { $0.id == rule.description.id }) {
            copy.entries.append(Entry(rule: rule, severity: rule.description.severity, parameters: [:]))
        }
        copy.entries.sort { $0.id < $1.id }
        return copy
    }

    /// The set containing only `rule`, as its examples and tests run it.
    public static func only(_ rule: any Rule.Type, parameters: [String: JSON] = [:]) -> RuleSet {
        RuleSet(name: rule.description.id, entries: [Entry(rule: rule, severity: rule.description.severity, parameters: parameters)])
    }

    /// The set's rules as JSON (for `GET /v1/rulesets` and `auditctl rules --format json`).
    public var json: JSON {
        var members: [(String, JSON)] = [("name", .string(name)), ("description", .string(summary))]
        if let extends { members.append(("extends", .string(extends))) }
        members.append(
            (
                "rules",
                .array(
                    entries.map { entry in
                        let description = entry.rule.description
                        var parameters: [(String, JSON)] = []
                        for parameter in description.parameters {
                            parameters.append((parameter.name, entry.parameters[parameter.name] ?? parameter.defaultValue))
                        }
                        return .object([
                            ("id", .string(description.id)), ("title", .string(description.title)),
                            ("severity", .string(entry.severity.rawValue)),
                            ("wcag", .array(description.wcag.map(JSON.string))),
                            ("parameters", .object(parameters)),
                        ])
                    })
            ))
        if !customRules.isEmpty {
            members.append(
                (
                    "custom",
                    .array(
                        customRules.map { rule in
                            .object([
                                ("id", .string(rule.id)), ("severity", .string(rule.severity.rawValue)),
                                ("xpath", .string(rule.expression)), ("wcag", .array(rule.wcag.map(JSON.string))),
                            ])
                        })
                ))
        }
        if !suppressions.isEmpty {
            members.append(
                (
                    "suppress",
                    .array(
                        suppressions.map { suppression in
                            var fields: [(String, JSON)] = [("rule", .string(suppression.rule.pattern))]
                            if let element = suppression.element { fields.append(("element", .string(element.pattern))) }
                            if let screen = suppression.screen { fields.append(("screen", .string(screen.pattern))) }
                            if let reason = suppression.reason { fields.append(("reason", .string(reason))) }
                            return .object(fields)
                        })
                ))
        }
        return .object(members)
    }
}
