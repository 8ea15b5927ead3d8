import AuditCore

/// One submitted snapshot and what came back: the daemon's report, decoded once
/// (``DaemonReport``), or the answer it gave instead (``ErrorAnswer``).
package struct SnapshotResult {
    /// How the snapshot is named in output (`Examples/checkout.xml`, `<stdin>`).
    package var file: String
    package var report: DaemonReport?
    /// An error answer (400 with line and column, 413, 422, 503, 507…), or a 200 whose
    /// body is not a report.
    package var error: ErrorAnswer?
    package var status: Int
    /// The report's bytes as the daemon sent them (compact JSON), for printing it as is.
    package var body: [UInt8] = []
    /// The report's `summary` when the report itself was not decoded (`--format json`).
    package var summary: DaemonReport.Summary?
    /// Baseline state by finding index: `new`, `unchanged`; and the fixed ones.
    package var baselineStates: [String] = []
    package var absent: [ReportFinding] = []
    /// How long the request took as auditctl saw it (sent, audited, answer received), and
    /// the daemon's `Server-Timing` header: for `--timing`.
    package var requestMilliseconds: Double = 0
    package var serverTiming: String?

    package init(file: String, status: Int) {
        self.file = file
        self.status = status
    }

    /// The result of one answer: a 200 is decoded as a report (or, when `summaryOnly` and
    /// its summary can be found, kept as bytes with only the summary read); anything else
    /// is the daemon's error.
    package init(file: String, status: Int, body: [UInt8], summaryOnly: Bool) {
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

    package var findings: [ReportFinding] { report?.findings ?? [] }
    package var incomplete: [ReportIncomplete] { report?.incomplete ?? [] }

    /// The baseline state of finding `index`, `nil` without a baseline.
    package func baselineState(_ index: Int) -> String? { index < baselineStates.count ? baselineStates[index] : nil }

    /// Whether finding `index` fails the gate: at or above `failOn`, and with a baseline
    /// only when it is new or regressed. Every format and the exit status ask this.
    package func failsGate(_ index: Int, failOn: Severity?, hasBaseline: Bool) -> Bool {
        guard let failOn, findings[index].severity >= failOn else { return false }
        return !hasBaseline || baselineState(index) == "new" || baselineState(index) == "regressed"
    }

    /// Findings that count for `--fail-on`: all, or only new (and regressed) ones with a baseline.
    package func counted(failOn: Severity?, hasBaseline: Bool) -> Int {
        guard let failOn else { return 0 }
        if report == nil, let summary {
            return Severity.allCases.filter { $0 >= failOn }.reduce(0) { $0 + summary.count($1) }
        }
        return findings.indices.filter { failsGate($0, failOn: failOn, hasBaseline: hasBaseline) }.count
    }

    /// With a baseline: how many findings are new, regressed and unchanged, and how many
    /// of the baseline's are fixed.
    package var baselineCounts: (new: Int, regressed: Int, unchanged: Int, fixed: Int) {
        var counts = (new: 0, regressed: 0, unchanged: 0, fixed: absent.count)
        for index in findings.indices {
            switch baselineState(index) {
            case "regressed": counts.regressed += 1
            case "unchanged": counts.unchanged += 1
            default: counts.new += 1
            }
        }
        return counts
    }
}

/// Everything a formatter needs beyond the results.
package struct FormatContext {
    package var color: Bool
    package var hasBaseline: Bool
    /// Rule sets by name, as the daemon describes them (for SARIF and JUnit).
    package var ruleSets: [String: RuleSet]
    /// The submitted bytes by file name (the HTML report draws every element).
    package var sources: [String: [UInt8]] = [:]
    /// The screenshot sent with each snapshot, by file name (when the format needs sources).
    package var screenshots: [String: [UInt8]] = [:]
    /// Where each snapshot's screenshot file is, as a link from the report (relative to the
    /// report's folder when it is written to a file): the HTML report embeds a scaled copy
    /// and links the original.
    package var screenshotLinks: [String: String] = [:]
    /// What the baseline is, as the report names it: "build 41" for a build from the trend
    /// index (`--since-build`), else nil ("the baseline").
    package var baselineName: String?

    /// What findings are compared with, as the report says it: "build 41", or "the baseline".
    package var baselineTitle: String { baselineName ?? "the baseline" }

    /// The gate of the run (`--fail-on`): the HTML report's verdict says whether it passed.
    package var failOn: Severity? = .error
    /// `--quiet`: the text format leaves out its incomplete lines (counts stay).
    package var quiet = false

    package init(color: Bool, hasBaseline: Bool, ruleSets: [String: RuleSet], sources: [String: [UInt8]] = [:], screenshots: [String: [UInt8]] = [:]) {
        self.color = color
        self.hasBaseline = hasBaseline
        self.ruleSets = ruleSets
        self.sources = sources
        self.screenshots = screenshots
    }
}
