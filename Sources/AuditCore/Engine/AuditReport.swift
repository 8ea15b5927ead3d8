/// The result of one audit (SPEC §3): the snapshot's identity, the rule set, every
/// finding in document order then rule id, what could not be judged, and counts.
public struct AuditReport: Sendable {
    /// A finding placed in its snapshot: where it is and its stable fingerprint.
    public struct Located: Sendable {
        public var finding: Finding
        public var elementID: String?
        public var path: String?
        public var line: Int?
        public var column: Int?
        public var frame: Rect?
        public var fingerprint: String
    }

    /// An incomplete placed in its snapshot.
    public struct LocatedIncomplete: Sendable {
        public var incomplete: Incomplete
        public var elementID: String?
        public var path: String?
        public var line: Int?
    }

    public var id: String
    public var app: String?
    public var build: String?
    public var screen: String?
    public var platform: Platform
    public var dialect: Dialect
    public var elementCount: Int
    public var ruleSet: String
    public var durationMilliseconds: Double
    public var findings: [Located]
    public var incomplete: [LocatedIncomplete]
    /// Findings suppressed by `a11y-ignore` or the rule set, counted per rule id.
    public var suppressed: [String: Int]

    public func count(_ severity: Severity) -> Int { findings.filter { $0.finding.severity == severity }.count }

    public var suppressedTotal: Int { suppressed.values.reduce(0, +) }

    /// The SPEC §3 report.
    public var json: JSON {
        let snapshot: [(String, JSON)] = [
            ("app", .optional(app)), ("build", .optional(build)), ("screen", .optional(screen)),
            ("platform", .string(platform.rawValue)), ("dialect", .string(dialect.rawValue)),
            ("elements", .int(elementCount)),
        ]
        return .object([
            ("audit", .string(id)),
            ("snapshot", .object(snapshot)),
            ("ruleset", .string(ruleSet)),
            ("duration_ms", .number((durationMilliseconds * 1000).rounded() / 1000)),
            ("summary", .object([
                ("error", .int(count(.error))), ("warning", .int(count(.warning))), ("notice", .int(count(.notice))),
                ("incomplete", .int(incomplete.count)), ("suppressed", .int(suppressedTotal)),
            ])),
            ("findings", .array(findings.map(Self.json(of:)))),
            ("incomplete", .array(incomplete.map { item in
                var fields: [(String, JSON)] = [("rule", .string(item.incomplete.ruleID)), ("reason", .string(item.incomplete.reason))]
                if item.incomplete.element != nil {
                    fields.append(("element", .optional(item.elementID)))
                    if let path = item.path { fields.append(("path", .string(path))) }
                    if let line = item.line { fields.append(("line", .int(line))) }
                }
                return .object(fields)
            })),
            ("suppressed", .object(suppressed.keys.sorted().map { ($0, .int(suppressed[$0] ?? 0)) })),
        ])
    }

    public static func json(of located: Located) -> JSON {
        let finding = located.finding
        return .object([
            ("rule", .string(finding.ruleID)),
            ("severity", .string(finding.severity.rawValue)),
            ("wcag", .array(finding.wcag.map(JSON.string))),
            ("element", .optional(located.elementID)),
            ("path", .optional(located.path)),
            ("line", located.line.map(JSON.int) ?? .null),
            ("column", located.column.map(JSON.int) ?? .null),
            ("frame", located.frame.map { .array($0.components.map(JSON.number)) } ?? .null),
            ("message", .string(finding.message)),
            ("result", .string(finding.resultID)),
            ("evidence", .object(finding.evidence)),
            ("fingerprint", .string(located.fingerprint)),
        ])
    }
}
