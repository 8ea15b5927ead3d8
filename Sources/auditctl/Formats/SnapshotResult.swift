import AuditCore

/// One submitted snapshot and what came back: the daemon's report, decoded once
/// (``DaemonReport``), or the answer it gave instead (``ErrorAnswer``).
struct SnapshotResult {
    /// How the snapshot is named in output (`Examples/checkout.xml`, `<stdin>`).
    var file: String
    var report: DaemonReport?
    /// An error answer (400 with line and column, 413, 422, 503, 507…), or a 200 whose
    /// body is not a report.
    var error: ErrorAnswer?
    var status: Int
    /// The report's bytes as the daemon sent them (compact JSON), for printing it as is.
    var body: [UInt8] = []
    /// The report's `summary` when the report itself was not decoded (`--format json`).
    var summary: DaemonReport.Summary?
    /// Baseline state by finding index: `new`, `unchanged`; and the fixed ones.
    var baselineStates: [String] = []
    var absent: [ReportFinding] = []
    /// How long the request took as auditctl saw it (sent, audited, answer received), and
    /// the daemon's `Server-Timing` header: for `--timing`.
    var requestMilliseconds: Double = 0
    var serverTiming: String?

    init(file: String, status: Int) {
        self.file = file
        self.status = status
    }

    /// The result of one answer: a 200 is decoded as a report (or, when `summaryOnly` and
    /// its summary can be found, kept as bytes with only the summary read); anything else
    /// is the daemon's error.
    init(file: String, status: Int, body: [UInt8], summaryOnly: Bool) {
        self.init(file: file, status: status)
        guard status == 200 else {
            error = ErrorAnswer(status: status, body: body)
            return
        }
        self.body = body
        if summaryOnly, let summary = DaemonReport.summary(in: body) {
            self.summary = summary
            return
        }
        do {
            let json = try JSONParser.parse(body)
            report = try DaemonReport(json)
        } catch let problem as AnswerDecodingError {
            error = ErrorAnswer(
                status: status, code: "bad-report", message: "the daemon's report is not one auditctl can read: \(problem)",
                hint: "is auditd the same version as auditctl (auditctl status)?")
        } catch {
            self.error = ErrorAnswer(
                status: status, code: "bad-report", message: "the daemon's answer is not JSON",
                hint: "is it auditd that listens on this socket (auditctl status)?")
        }
    }

    var findings: [ReportFinding] { report?.findings ?? [] }
    var incomplete: [ReportIncomplete] { report?.incomplete ?? [] }

    /// The baseline state of finding `index`, `nil` without a baseline.
    func baselineState(_ index: Int) -> String? { index < baselineStates.count ? baselineStates[index] : nil }

    /// Findings that count for `--fail-on`: all, or only new ones with a baseline.
    func counted(failOn: Severity?, hasBaseline: Bool) -> Int {
        guard let failOn else { return 0 }
        if report == nil, let summary {
            return Severity.allCases.filter { $0 >= failOn }.reduce(0) { $0 + summary.count($1) }
        }
        return findings.indices.filter { index in
            findings[index].severity >= failOn && (!hasBaseline || baselineState(index) == "new")
        }.count
    }
}

/// Everything a formatter needs beyond the results.
struct FormatContext {
    var color: Bool
    var hasBaseline: Bool
    /// Rule sets by name, as the daemon describes them (for SARIF and JUnit).
    var ruleSets: [String: RuleSet]
    /// The submitted bytes by file name (the HTML report draws every element).
    var sources: [String: [UInt8]] = [:]
    /// The screenshot sent with each snapshot, by file name (when the format needs sources).
    var screenshots: [String: [UInt8]] = [:]
}
