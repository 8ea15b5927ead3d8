import AuditCore

/// One submitted snapshot and what came back: the daemon's report (SPEC §3), or an error.
struct SnapshotResult {
    /// How the snapshot is named in output (`Examples/checkout.xml`, `<stdin>`).
    var file: String
    var report: JSON?
    /// An error answer (400 with line and column, 413, 422, 503, 507…).
    var error: JSON?
    var status: Int
    /// The report's bytes as the daemon sent them (compact JSON), for printing it as is.
    var body: [UInt8] = []
    /// The report's `summary` when the report itself was not parsed (`--format json`).
    var summary: JSON?
    /// Baseline state by finding index: `new`, `unchanged`; and the fixed ones.
    var baselineStates: [String] = []
    var absent: [JSON] = []
    /// How long the request took as auditctl saw it (sent, audited, answer received), and
    /// the daemon's `Server-Timing` header: for `--timing`.
    var requestMilliseconds: Double = 0
    var serverTiming: String?

    var findings: [JSON] { report?["findings"]?.arrayValue ?? [] }
    var incomplete: [JSON] { report?["incomplete"]?.arrayValue ?? [] }

    /// The `summary` object of a compact SPEC §3 report, read without parsing the rest;
    /// `nil` when it cannot be found (then the whole report is parsed).
    static func summary(in body: [UInt8]) -> JSON? {
        let key = Array(#""summary":{"#.utf8)
        guard let start = body.firstRange(of: key)?.lowerBound,
              let close = body[start...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
        let object = body[(start + key.count - 1)...close]
        guard let summary = try? JSONParser.parse(Array(object)), summary["error"]?.intValue != nil else { return nil }
        return summary
    }

    func severity(of finding: JSON) -> Severity { finding["severity"]?.stringValue.flatMap(Severity.init) ?? .error }

    /// The baseline state of finding `index`, `nil` without a baseline.
    func baselineState(_ index: Int) -> String? { index < baselineStates.count ? baselineStates[index] : nil }

    /// Findings that count for `--fail-on`: all, or only new ones with a baseline.
    func counted(failOn: Severity?, hasBaseline: Bool) -> Int {
        guard let failOn else { return 0 }
        if report == nil, let summary {
            return Severity.allCases.filter { $0 >= failOn }.reduce(0) { $0 + (summary[$1.rawValue]?.intValue ?? 0) }
        }
        return findings.indices.filter { index in
            severity(of: findings[index]) >= failOn && (!hasBaseline || baselineState(index) == "new")
        }.count
    }
}

/// Everything a formatter needs beyond the results.
struct FormatContext {
    var color: Bool
    var hasBaseline: Bool
    /// Rule sets by name, as the daemon describes them (for SARIF and JUnit).
    var ruleSets: [String: JSON]
    /// The submitted bytes by file name (the HTML report draws every element).
    var sources: [String: [UInt8]] = [:]
    /// The screenshot sent with each snapshot, by file name (when the format needs sources).
    var screenshots: [String: [UInt8]] = [:]
}
