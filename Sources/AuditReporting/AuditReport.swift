/// The result of one audit (docs/findings.md): the snapshot's identity, the rule set, every
/// finding in document order then rule id, what could not be judged, and counts.
public struct AuditReport: Sendable {
    /// A finding placed in its snapshot: where it is and its stable fingerprint. Its place
    /// (id, path, line, column, frame) is read from the snapshot when asked for, so placing
    /// a finding builds no strings; its report fields are rendered once, by the audit.
    public struct Located: Sendable {
        public let finding: Finding
        let snapshot: Snapshot
        let fingerprintValue: UInt64
        let defectValue: UInt64

        package init(finding: Finding, snapshot: Snapshot, fingerprint: UInt64, defect: UInt64) {
            self.finding = finding
            self.snapshot = snapshot
            self.fingerprintValue = fingerprint
            self.defectValue = defect
        }

        /// The element's `id` attribute.
        public var elementID: String? { finding.element.flatMap { snapshot.text(snapshot.elements[$0].id) } }
        /// The element's XPath-like location (``Snapshot/path(of:)``).
        public var path: String? { finding.element.map { snapshot.path(of: $0) } }
        /// The element's line, or for a snapshot-wide finding the `line` of its evidence.
        public var line: Int? {
            guard let index = finding.element else { return finding.evidence("line")?.intValue }
            return Int(snapshot.elements[index].line)
        }
        public var column: Int? { finding.element.map { Int(snapshot.elements[$0].column) } }
        public var frame: Rect? { finding.element.flatMap { snapshot.elements[$0].frame } }
        /// 16 hex digits (``Fingerprint``).
        public var fingerprint: String { Fingerprint.hex(fingerprintValue) }
        /// The defect this finding is an instance of, 16 hex digits (``Fingerprint/pair(of:in:ruleStart:keys:)``):
        /// the same for the same rule and result on every row of a list.
        public var defect: String { Fingerprint.hex(defectValue) }
    }

    /// A run of consecutive findings already written: `{…},{…}` and, for each, the range of
    /// its fields (between the braces) in `bytes`.
    package struct RenderedFindings: Sendable {
        /// Written once by the audit's job, only read afterwards: `{…},{…}`, and each run
        /// but the report's first begins with a comma, so that runs laid end to end are the
        /// findings array (a large report sends them as they are, ``RenderedReport``).
        /// Empty when the run was spilled.
        var bytes: [UInt8]
        package var fields: [Range<Int>]
        /// Where the bytes are instead when the audit spilled them (never the report's
        /// first run): the rendered report reads them back (``RenderedReport/readSpilled()``).
        var spilled: SpillFile.Extent?

        package init(bytes: [UInt8], fields: [Range<Int>]) {
            self.bytes = bytes
            self.fields = fields
        }

        package init(spilled: SpillFile.Extent, fields: [Range<Int>]) {
            self.bytes = []
            self.fields = fields
            self.spilled = spilled
        }

        var byteCount: Int { spilled?.count ?? bytes.count }
    }

    /// An incomplete placed in its snapshot.
    public struct LocatedIncomplete: Sendable {
        public var incomplete: Incomplete
        public var elementID: String?
        public var path: String?
        public var line: Int?

        package init(incomplete: Incomplete, elementID: String?, path: String?, line: Int?) {
            self.incomplete = incomplete
            self.elementID = elementID
            self.path = path
            self.line = line
        }
    }

    public var id: String
    public var app: String?
    public var build: String?
    public var screen: String?
    public var platform: Platform
    public var dialect: Dialect
    public var elementCount: Int
    public var ruleSet: String
    /// How long the audit took: the rules, then their findings placed and written.
    public var durationMilliseconds: Double
    /// Of ``durationMilliseconds``, the time the findings took once the rules were done:
    /// ordered, suppressed, placed and written (the daemon's `findings` phase; the rest is
    /// its `rules` phase). Zero for a report not made by an audit.
    public var findingsMilliseconds: Double
    public package(set) var findings: AuditFindings
    public var incomplete: [LocatedIncomplete]
    /// Findings suppressed by `a11y-ignore` or the rule set, counted per rule id.
    public var suppressed: [String: Int]
    /// How the snapshot was read, as its `notes` say: what decided an Android dump's
    /// density, how a screenshot was fitted, a trailer cut off. Empty for most snapshots.
    public var notes: [String] = []
    /// ``findings`` as the audit already wrote them, in order, in runs (one per chunk of
    /// the audit's parallel placing); the writer copies whole runs.
    package var renderedFindings: [RenderedFindings] = []

    package init(
        id: String, app: String?, build: String?, screen: String?, platform: Platform, dialect: Dialect, elementCount: Int,
        ruleSet: String, durationMilliseconds: Double, findingsMilliseconds: Double = 0, findings: AuditFindings,
        incomplete: [LocatedIncomplete], suppressed: [String: Int], notes: [String] = [], renderedFindings: [RenderedFindings] = []
    ) {
        self.id = id
        self.app = app
        self.build = build
        self.screen = screen
        self.platform = platform
        self.dialect = dialect
        self.elementCount = elementCount
        self.ruleSet = ruleSet
        self.durationMilliseconds = durationMilliseconds
        self.findingsMilliseconds = findingsMilliseconds
        self.findings = findings
        self.incomplete = incomplete
        self.suppressed = suppressed
        self.notes = notes
        self.renderedFindings = renderedFindings
    }

    public func count(_ severity: Severity) -> Int { findings.count(severity) }

    public var suppressedTotal: Int { suppressed.values.reduce(0, +) }

    /// `duration_ms` as reports print it: rounded to microseconds.
    public var roundedDuration: Double { (durationMilliseconds * 1000).rounded() / 1000 }

    /// The report (docs/findings.md) as bytes (see ``ReportWriter``).
    public func rendered() -> RenderedReport { ReportWriter.render(self) }

    /// The report (docs/findings.md) as a `JSON` value, read back from the rendered bytes (for tests
    /// and tools; the daemon sends the bytes).
    public var json: JSON {
        var rendered = rendered()
        guard (try? rendered.readSpilled()) != nil else { return .null }
        return (try? JSONParser.parse(rendered.bytes)) ?? .null
    }
}

extension AuditBudget {
    /// True when the budget left rules of `report` unfinished or unstarted.
    public static func ranOut(in report: AuditReport) -> Bool {
        report.incomplete.contains { $0.incomplete.reason.hasPrefix(ranOutPrefix) }
    }
}
