import AuditCore
import Foundation

/// The top of the report: the verdict first (does the run pass its gate, and why not);
/// with a baseline, new / regressed / unchanged / fixed ("what got worse in this build");
/// then counts by severity with the defects they are instances of, by rule (errors
/// first), and per screen, worst first, each snapshot linked to its section; suppressed
/// findings and incomplete checks counted; last, the defects with several instances, each
/// with its instances linked.
package enum HTMLSummary {
    /// The context says whether there is a baseline and what it is ("build 41", from the
    /// trend index, or "the baseline"), and the run's gate.
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        let hasBaseline = context.hasBaseline
        let against = context.baselineTitle
        let audited = results.filter { $0.report != nil }
        let findings = audited.flatMap(\.findings)
        var out = "<section class=\"summary\" aria-labelledby=\"summary-heading\">\n<h2 id=\"summary-heading\">Summary</h2>\n"
        out += verdict(results, hasBaseline: hasBaseline, baselineName: context.baselineName, failOn: context.failOn)
        if hasBaseline {
            var new = 0, unchanged = 0, regressed = 0, fixed = 0
            for result in audited {
                let counts = result.baselineCounts
                new += counts.new
                unchanged += counts.unchanged
                regressed += counts.regressed
                fixed += counts.fixed
            }
            out +=
                "<p class=\"baseline\"><strong>Against \(HTMLText.escape(against)):</strong> <span class=\"state state-new\">\(new) new</span> "
                + (regressed > 0 ? "<span class=\"state state-new\">\(regressed) regressed</span> " : "")
                + "<span class=\"state state-unchanged\">\(unchanged) unchanged</span> <span class=\"state state-absent\">\(fixed) fixed</span></p>\n"
        }
        let incomplete = audited.reduce(0) { $0 + $1.incomplete.count }
        let suppressed = audited.reduce(0) { $0 + ($1.report?.summary.suppressed ?? 0) }
        out +=
            "<ul class=\"totals\">\n<li>\(HTMLText.count(results.count, "snapshot"))"
            + (results.count > audited.count ? ", \(results.count - audited.count) not audited" : "") + "</li>\n"
        // With a baseline, each severity says what changed: new (and regressed) against
        // fixed, as a delta.
        var newBySeverity: [Severity: Int] = [:], fixedBySeverity: [Severity: Int] = [:]
        if hasBaseline {
            for result in audited {
                for (index, finding) in result.findings.enumerated() where result.baselineState(index) != "unchanged" {
                    newBySeverity[finding.severity, default: 0] += 1
                }
                for fixed in result.absent { fixedBySeverity[fixed.severity, default: 0] += 1 }
            }
        }
        for severity in Severity.allCases.reversed() {
            let ofSeverity = findings.filter { $0.severity == severity }
            let defects = Set(ofSeverity.map { $0.defect ?? $0.fingerprint }).count
            let grouped = defects < ofSeverity.count ? " (\(HTMLText.count(defects, "defect")))" : ""
            var delta = ""
            if hasBaseline {
                let added = newBySeverity[severity] ?? 0, removed = fixedBySeverity[severity] ?? 0
                let net = added - removed
                delta =
                    " <span class=\"delta\">\(net > 0 ? "+\(net)" : net < 0 ? "−\(-net)" : "±0") since \(HTMLText.escape(against)): \(added) new, \(removed) fixed</span>"
            }
            out += "<li>\(HTMLText.severityLabel(severity)): \(ofSeverity.count)\(grouped)\(delta)</li>\n"
        }
        out += "<li>incomplete: \(incomplete)</li>\n<li>suppressed: \(suppressed)</li>\n</ul>\n"
        // By rule, most findings first.
        var byRule: [String: [Severity: Int]] = [:]
        for finding in findings { byRule[finding.rule, default: [:]][finding.severity, default: 0] += 1 }
        if !byRule.isEmpty {
            // Errors first, then warnings, then notices: a rule with ten notices does not
            // sit above one with an error.
            func rank(_ counts: [Severity: Int]) -> (Int, Int, Int) { (counts[.error] ?? 0, counts[.warning] ?? 0, counts[.notice] ?? 0) }
            let rows = byRule.sorted { rank($0.value) != rank($1.value) ? rank($0.value) > rank($1.value) : $0.key < $1.key }
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
        // Worst screens first (errors, then warnings, then notices); the snapshots that
        // could not be audited at the top, since nothing of them was checked.
        func weight(_ result: SnapshotResult) -> (Int, Int, Int, Int) {
            guard let summary = result.report?.summary else { return (1, 0, 0, 0) }
            return (0, summary.error, summary.warning, summary.notice)
        }
        let ordered = results.enumerated().sorted { weight($0.element) != weight($1.element) ? weight($0.element) > weight($1.element) : $0.offset < $1.offset }
        for (index, result) in ordered {
            // The file's name, its folder in the title: long paths do not push the counts away.
            let base = (result.file as NSString).lastPathComponent
            let link = "<a href=\"#snapshot-\(index)\" title=\"\(HTMLText.escape(result.file))\">\(HTMLText.escape(base.isEmpty ? result.file : base))</a>"
            guard let report = result.report else {
                out += "<tr><th scope=\"row\">\(link)</th><td colspan=\"5\">not audited: \(HTMLText.escape(result.error?.message ?? ""))</td></tr>\n"
                continue
            }
            let name = [report.snapshot.app, report.snapshot.screen].compactMap { $0 }.joined(separator: " · ")
            out +=
                "<tr><th scope=\"row\">\(link)</th><td>\(HTMLText.escape(name))</td><td>\(report.summary.error)</td><td>\(report.summary.warning)</td>"
                + "<td>\(report.summary.notice)</td><td>\(report.summary.incomplete)</td></tr>\n"
        }
        out += "</tbody></table></div>\n"
        return out + defects(results) + "</section>\n"
    }

    /// The defects that have several instances, worst first and then the most repeated:
    /// one problem with its instances linked (at most 50 rows, 8 links each).
    /// The checks that several snapshots could not judge for one reason (a capture format's
    /// limit), said once with the snapshots it applies to; empty when there are none.
    package static func sharedIncompletes(_ shared: SharedIncompletes) -> String {
        guard !shared.entries.isEmpty else { return "" }
        var out = "<section class=\"not-judged\" aria-labelledby=\"not-judged\"><h2 id=\"not-judged\">Not judged on several snapshots</h2>\n<ul>\n"
        for entry in shared.entries {
            let named = entry.files.prefix(3).map(HTMLText.escape).joined(separator: ", ") + (entry.files.count > 3 ? " and \(entry.files.count - 3) more" : "")
            out +=
                "<li><code>\(HTMLText.escape(entry.rule))</code> \(HTMLText.escape(entry.reason)) — \(HTMLText.count(entry.files.count, "snapshot")) (\(named))</li>\n"
        }
        return out + "</ul></section>\n"
    }

    static func defects(_ results: [SnapshotResult]) -> String {
        var groups: [String: [(snapshot: Int, number: Int, finding: ReportFinding)]] = [:]
        var order: [String] = []
        for (index, result) in results.enumerated() {
            for (offset, finding) in result.findings.enumerated() {
                let key = HTMLFindingList.defectKey(finding)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append((index, offset + 1, finding))
            }
        }
        let repeated = order.compactMap { groups[$0] }.filter { $0.count > 1 }.sorted { a, b in
            a[0].finding.severity != b[0].finding.severity ? a[0].finding.severity > b[0].finding.severity : a.count > b.count
        }
        guard !repeated.isEmpty else { return "" }
        var out =
            "<div class=\"table\" role=\"region\" aria-label=\"Defects with several instances\" tabindex=\"0\"><table class=\"by-defect\"><caption>Defects with several instances</caption>\n"
            + "<thead><tr><th scope=\"col\">Defect</th><th scope=\"col\">Instances</th><th scope=\"col\">Findings</th></tr></thead><tbody>\n"
        for instances in repeated.prefix(50) {
            let first = instances[0].finding
            // The instances' numbers, after their screen's file name when the run has several.
            var places: [String] = []
            var current = -1
            for instance in instances.prefix(8) {
                let link = "<a href=\"#f-\(instance.snapshot)-\(instance.number)\">#\(instance.number)</a>"
                if instance.snapshot != current, results.count > 1 {
                    places.append(HTMLText.escape((results[instance.snapshot].file as NSString).lastPathComponent) + ": " + link)
                } else {
                    places.append(link)
                }
                current = instance.snapshot
            }
            let more = instances.count > 8 ? " and \(instances.count - 8) more" : ""
            out +=
                "<tr><th scope=\"row\">\(HTMLText.severityLabel(first.severity)) <code>\(HTMLText.escape(first.rule))</code> \(HTMLText.escape(HTMLText.readable(first.message)))</th>"
                + "<td>\(instances.count)</td><td>\(places.joined(separator: ", "))\(more)</td></tr>\n"
        }
        out += "</tbody></table></div>\n"
        if repeated.count > 50 { out += "<p class=\"meta\">and \(repeated.count - 50) more defects with several instances</p>\n" }
        return out
    }

    /// The run against its gate, in one sentence: passes, or fails with how many findings
    /// (and defects) at or above the gate, in how many snapshots; new and regressed ones
    /// only with a baseline.
    static func verdict(_ results: [SnapshotResult], hasBaseline: Bool, baselineName: String? = nil, failOn: Severity?) -> String {
        let unaudited = results.filter { $0.report == nil }.count
        guard let failOn else {
            return "<p class=\"verdict verdict-none\"><strong>No gate</strong> (<code>--fail-on never</code>): the findings below are for reading.</p>\n"
        }
        var failing = 0, defects = Set<String>(), screens = 0
        for result in results where result.report != nil {
            let counted = result.findings.indices.filter { result.failsGate($0, failOn: failOn, hasBaseline: hasBaseline) }
            failing += counted.count
            for index in counted { defects.insert(result.file + "\u{1F}" + (result.findings[index].defect ?? result.findings[index].fingerprint)) }
            if !counted.isEmpty { screens += 1 }
        }
        let gate = "<code>--fail-on \(failOn.rawValue)</code>"
        let scope = hasBaseline ? "new or regressed " : ""
        // Against a build of the trend index, which one: "since build 41".
        let since = baselineName.map { " since \(HTMLText.escape($0))" } ?? ""
        if failing == 0, unaudited == 0 {
            return "<p class=\"verdict verdict-pass\"><strong>Passes</strong> \(gate): no \(scope)finding\(since) at \(failOn.rawValue) or above.</p>\n"
        }
        var reasons: [String] = []
        if failing > 0 {
            let grouped = defects.count < failing ? " (\(HTMLText.count(defects.count, "defect")))" : ""
            reasons.append(
                "\(HTMLText.count(failing, "\(scope)finding"))\(since) at \(failOn.rawValue) or above\(grouped) in \(HTMLText.count(screens, "snapshot"))")
        }
        if unaudited > 0 { reasons.append("\(HTMLText.count(unaudited, "snapshot")) not audited") }
        return "<p class=\"verdict verdict-fail\"><strong>Fails</strong> \(gate): \(reasons.joined(separator: "; ")).</p>\n"
    }
}
