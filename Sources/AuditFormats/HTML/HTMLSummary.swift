import AuditCore

/// The top of the report: with a baseline, new / unchanged / fixed first ("what got worse
/// in this build"); then counts by severity, by rule, and per app and screen, each
/// snapshot linked to its section; suppressed findings and incomplete checks counted.
package enum HTMLSummary {
    package static func render(_ results: [SnapshotResult], hasBaseline: Bool) -> String {
        let audited = results.filter { $0.report != nil }
        let findings = audited.flatMap(\.findings)
        var out = "<section class=\"summary\" aria-labelledby=\"summary-heading\">\n<h2 id=\"summary-heading\">Summary</h2>\n"
        if hasBaseline {
            var new = 0, unchanged = 0
            for result in audited {
                for index in result.findings.indices {
                    if result.baselineState(index) == "unchanged" { unchanged += 1 } else { new += 1 }
                }
            }
            let fixed = audited.reduce(0) { $0 + $1.absent.count }
            out +=
                "<p class=\"baseline\"><strong>Against the baseline:</strong> <span class=\"state state-new\">\(new) new</span> "
                + "<span class=\"state state-unchanged\">\(unchanged) unchanged</span> <span class=\"state state-absent\">\(fixed) fixed</span></p>\n"
        }
        let incomplete = audited.reduce(0) { $0 + $1.incomplete.count }
        let suppressed = audited.reduce(0) { $0 + ($1.report?.summary.suppressed ?? 0) }
        out +=
            "<ul class=\"totals\">\n<li>\(HTMLText.count(results.count, "snapshot"))"
            + (results.count > audited.count ? ", \(results.count - audited.count) not audited" : "") + "</li>\n"
        for severity in Severity.allCases.reversed() {
            out += "<li>\(HTMLText.severityLabel(severity)): \(findings.filter { $0.severity == severity }.count)</li>\n"
        }
        out += "<li>incomplete: \(incomplete)</li>\n<li>suppressed: \(suppressed)</li>\n</ul>\n"
        // By rule, most findings first.
        var byRule: [String: [Severity: Int]] = [:]
        for finding in findings { byRule[finding.rule, default: [:]][finding.severity, default: 0] += 1 }
        if !byRule.isEmpty {
            let rows = byRule.sorted { ($0.value.values.reduce(0, +), $1.key) > ($1.value.values.reduce(0, +), $0.key) }
            out +=
                "<div class=\"table\" role=\"region\" aria-label=\"Findings by rule\" tabindex=\"0\"><table class=\"by-rule\"><caption>Findings by rule</caption>\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">Errors</th><th scope=\"col\">Warnings</th><th scope=\"col\">Notices</th></tr></thead><tbody>\n"
            for (rule, counts) in rows {
                out +=
                    "<tr><th scope=\"row\"><code>\(HTMLText.escape(rule))</code></th><td>\(counts[.error] ?? 0)</td><td>\(counts[.warning] ?? 0)</td><td>\(counts[.notice] ?? 0)</td></tr>\n"
            }
            out += "</tbody></table></div>\n"
        }
        // By app, when the run covers more than one screen.
        var byApp: [String: (snapshots: Int, error: Int, warning: Int, notice: Int)] = [:]
        for report in audited.compactMap(\.report) {
            var row = byApp[report.snapshot.app ?? "(no app)", default: (0, 0, 0, 0)]
            row.snapshots += 1
            row.error += report.summary.error
            row.warning += report.summary.warning
            row.notice += report.summary.notice
            byApp[report.snapshot.app ?? "(no app)"] = row
        }
        if audited.count > 1 {
            out +=
                "<div class=\"table\" role=\"region\" aria-label=\"Findings by app\" tabindex=\"0\"><table class=\"by-app\"><caption>Findings by app</caption>\n"
                + "<thead><tr><th scope=\"col\">App</th><th scope=\"col\">Snapshots</th><th scope=\"col\">Errors</th><th scope=\"col\">Warnings</th><th scope=\"col\">Notices</th></tr></thead><tbody>\n"
            for (app, row) in byApp.sorted(by: { $0.key < $1.key }) {
                out += "<tr><th scope=\"row\">\(HTMLText.escape(app))</th><td>\(row.snapshots)</td><td>\(row.error)</td><td>\(row.warning)</td><td>\(row.notice)</td></tr>\n"
            }
            out += "</tbody></table></div>\n"
        }
        out +=
            "<div class=\"table\" role=\"region\" aria-label=\"Findings by app and screen\" tabindex=\"0\"><table class=\"by-screen\"><caption>Findings by app and screen</caption>\n<thead><tr><th scope=\"col\">Snapshot</th><th scope=\"col\">App · screen</th><th scope=\"col\">Errors</th><th scope=\"col\">Warnings</th><th scope=\"col\">Notices</th><th scope=\"col\">Incomplete</th></tr></thead><tbody>\n"
        for (index, result) in results.enumerated() {
            let link = "<a href=\"#snapshot-\(index)\">\(HTMLText.escape(result.file))</a>"
            guard let report = result.report else {
                out += "<tr><th scope=\"row\">\(link)</th><td colspan=\"5\">not audited: \(HTMLText.escape(result.error?.message ?? ""))</td></tr>\n"
                continue
            }
            let name = [report.snapshot.app, report.snapshot.screen].compactMap { $0 }.joined(separator: " · ")
            out +=
                "<tr><th scope=\"row\">\(link)</th><td>\(HTMLText.escape(name))</td><td>\(report.summary.error)</td><td>\(report.summary.warning)</td>"
                + "<td>\(report.summary.notice)</td><td>\(report.summary.incomplete)</td></tr>\n"
        }
        return out + "</tbody></table></div>\n</section>\n"
    }
}
