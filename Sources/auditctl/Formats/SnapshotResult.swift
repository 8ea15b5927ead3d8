import AuditCore

/// One submitted snapshot and what came back: the daemon's report (SPEC §3), or an error.
struct SnapshotResult {
    /// How the snapshot is named in output (`Examples/checkout.xml`, `<stdin>`).
    var file: String
    var report: JSON?
    /// An error answer (400 with line and column, 413, 422, 503, 507…).
    var error: JSON?
    var status: Int
    /// Baseline state by finding index: `new`, `unchanged`; and the fixed ones.
    var baselineStates: [String] = []
    var absent: [JSON] = []

    var findings: [JSON] { report?["findings"]?.arrayValue ?? [] }
    var incomplete: [JSON] { report?["incomplete"]?.arrayValue ?? [] }

    func severity(of finding: JSON) -> Severity { finding["severity"]?.stringValue.flatMap(Severity.init) ?? .error }

    /// The baseline state of finding `index`, `nil` without a baseline.
    func baselineState(_ index: Int) -> String? { index < baselineStates.count ? baselineStates[index] : nil }

    /// Findings that count for `--fail-on`: all, or only new ones with a baseline.
    func counted(failOn: Severity?, hasBaseline: Bool) -> Int {
        guard let failOn else { return 0 }
        return findings.indices.filter { index in
            severity(of: findings[index]) >= failOn && (!hasBaseline || baselineState(index) == "new")
        }.count
    }
}

/// Output formats of `auditctl audit` (`--format`).
enum OutputFormat: String, CaseIterable {
    case text, json, jsonl, sarif, junit, html
}

/// Everything a formatter needs beyond the results.
struct FormatContext {
    var color: Bool
    var hasBaseline: Bool
    /// Rule sets by name, as the daemon describes them (for SARIF and JUnit).
    var ruleSets: [String: JSON]
    /// The submitted bytes by file name (the HTML report draws every element).
    var sources: [String: [UInt8]] = [:]
}
