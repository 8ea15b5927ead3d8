/// The result of one audit (SPEC §3): the snapshot's identity, the rule set, every
/// finding in document order then rule id, what could not be judged, and counts.
public struct AuditReport: Sendable {
    /// A finding placed in its snapshot: where it is and its stable fingerprint. Read-only
    /// outside the engine: its rendered `fields` must match the rest.
    public struct Located: Sendable {
        public internal(set) var finding: Finding
        public internal(set) var elementID: String?
        public internal(set) var path: String?
        public internal(set) var line: Int?
        public internal(set) var column: Int?
        public internal(set) var frame: Rect?
        public internal(set) var fingerprint: String
        /// The finding's SPEC §3 fields as JSON (no braces), rendered by the audit's own
        /// job; empty when not rendered yet.
        var fields: ArraySlice<UInt8> = []

        init(finding: Finding, elementID: String?, path: String?, line: Int?, column: Int?, frame: Rect?, fingerprint: String) {
            self.finding = finding
            self.elementID = elementID
            self.path = path
            self.line = line
            self.column = column
            self.frame = frame
            self.fingerprint = fingerprint
        }
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

    /// `duration_ms` as reports print it: rounded to microseconds.
    public var roundedDuration: Double { (durationMilliseconds * 1000).rounded() / 1000 }

    /// The SPEC §3 report as bytes (see ``ReportWriter``).
    public func rendered() -> RenderedReport { ReportWriter.render(self) }

    /// The SPEC §3 report as a `JSON` value, read back from the rendered bytes (for tests
    /// and tools; the daemon sends the bytes).
    public var json: JSON { (try? JSONParser.parse(rendered().bytes)) ?? .null }
}
