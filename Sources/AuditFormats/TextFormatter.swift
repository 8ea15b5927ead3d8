import AuditCore

/// Compiler-style lines editors and CI annotate:
/// `Examples/checkout.xml:12:5: error: [contrast.text] Text contrast 2.93:1 is below 4.5:1 (#C7C7CC on #FFFFFF)`,
/// grouped per snapshot with a summary. What cannot be judged for the same reason on several
/// snapshots of a run — a capture format's limit ("uiautomator carries no fonts") — is said
/// once, after them, with the snapshots it applies to (JSON and SARIF keep it per snapshot);
/// `quiet` leaves incomplete lines out (their counts stay in the summaries).
package enum TextFormatter {
    package static func render(_ results: [SnapshotResult], context: FormatContext, quiet: Bool = false) -> String {
        func paint(_ text: String, _ code: String) -> String { context.color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        // Everything that comes from a snapshot, a file name or the daemon is escaped.
        func e(_ text: String?) -> String { TerminalText.escape(text ?? "") }
        var out = ""
        var totals: [Severity: Int] = [:]
        var totalIncomplete = 0
        var changes = (new: 0, regressed: 0, fixed: 0)
        // Snapshot-wide reasons given by two snapshots or more: said once, at the end.
        let shared = SharedIncompletes(results)
        for result in results {
            if let error = result.error {
                let line = error.line.map { ":\($0)" } ?? ""
                let column = error.column.map { ":\($0)" } ?? ""
                out += "\(e(result.file))\(line)\(column): \(paint("error", "1;31")): \(e(error.message)) [\(e(error.code))]\n"
                if let hint = error.hint { out += "\(e(result.file))\(line)\(column): note: \(e(hint))\n" }
                continue
            }
            guard let report = result.report else { continue }
            let title = e(report.snapshot.title)
            out +=
                paint("== \(e(result.file))", "1") + (title.isEmpty ? "" : " (\(title))")
                + " — \(e(report.ruleSet)), \(report.snapshot.elements) elements\n"
            // The instances of one defect (the same rule and result on the same button of
            // every row) are one line: the first, with how many and where the others are.
            let defectKeys: [String?] = result.findings.indices.map { index in
                result.findings[index].defect.map { $0 + "|" + result.findings[index].severity.rawValue + "|" + (result.baselineState(index) ?? "") }
            }
            var instances: [String: [Int]] = [:]
            for (index, key) in defectKeys.enumerated() {
                if let key { instances[key, default: []].append(index) }
            }
            for (index, finding) in result.findings.enumerated() {
                let severity = finding.severity
                totals[severity, default: 0] += 1
                let members = defectKeys[index].flatMap { instances[$0] } ?? [index]
                if members.first != index { continue }
                let line = finding.line ?? 0
                let location = line > 0 ? "\(e(result.file)):\(line):\(finding.column ?? 0)" : e(result.file)
                let color = severity == .error ? "1;31" : severity == .warning ? "1;33" : "1;34"
                var text = "\(location): \(paint(severity.rawValue, color)): [\(e(finding.rule))] \(e(finding.message))"
                if let element = finding.element { text += " (\(e(element)))" }
                // Why a finding has its severity (a notice, a demoted warning), where its rule says.
                if let reason = finding.evidence.first(where: { $0.0 == "severity-reason" })?.1.stringValue {
                    text += " — \(severity.rawValue): \(e(reason))"
                }
                // A size judged on its one whole dimension, the other perhaps cut off.
                if let cut = finding.evidence.first(where: { $0.0 == "cut" })?.1.stringValue { text += " — \(e(cut))" }
                if let state = result.baselineState(index) { text += " [\(state)]" }
                if members.count > 1 {
                    let others = members.dropFirst().prefix(5).map { other in
                        let found = result.findings[other]
                        return ":\(found.line ?? 0):\(found.column ?? 0)" + (found.element.map { " (\(e($0)))" } ?? "")
                    }
                    let more = members.count - 1 - others.count
                    text += " ×\(members.count), also at " + others.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
                }
                out += text + "\n"
            }
            for item in result.incomplete {
                totalIncomplete += 1
                if quiet || shared.contains(item) { continue }
                let line = item.line.map { ":\($0)" } ?? ""
                let element = item.element.map { " (\(e($0)))" } ?? ""
                out += "\(e(result.file))\(line): \(paint("incomplete", "2")): [\(e(item.rule))] \(e(item.reason))\(element)\n"
            }
            for fixed in result.absent {
                out += "\(e(result.file)): fixed: [\(e(fixed.rule))] \(e(fixed.message))\n"
            }
            let summary = report.summary
            out +=
                "   \(summary.error) errors, \(summary.warning) warnings, \(summary.notice) notices, \(summary.incomplete) incomplete"
                + (summary.suppressed > 0 ? ", \(summary.suppressed) suppressed" : "")
                + (summary.defects.map { $0 < result.findings.count ? " (\($0) defects)" : "" } ?? "") + "\n"
            if context.hasBaseline {
                let counts = result.baselineCounts
                changes.new += counts.new
                changes.regressed += counts.regressed
                changes.fixed += counts.fixed
                out += "   against \(e(context.baselineTitle)): \(counts.new) new, \(counts.regressed) regressed, \(counts.fixed) fixed, \(counts.unchanged) unchanged\n"
            }
        }
        if !quiet {
            for entry in shared.entries {
                let files = entry.files
                let named = files.prefix(3).map { e($0) }.joined(separator: ", ") + (files.count > 3 ? " and \(files.count - 3) more" : "")
                out += "\(paint("incomplete", "2")) on \(files.count) snapshots: [\(e(entry.rule))] \(e(entry.reason)) (\(named))\n"
            }
        }
        let failed = results.filter { $0.error != nil }.count
        out +=
            "\(results.count) snapshot\(results.count == 1 ? "" : "s"): \(totals[.error] ?? 0) errors, \(totals[.warning] ?? 0) warnings, "
            + "\(totals[.notice] ?? 0) notices, \(totalIncomplete) incomplete" + (failed > 0 ? ", \(failed) not audited" : "")
            + (context.hasBaseline ? "; \(changes.new) new, \(changes.regressed) regressed, \(changes.fixed) fixed" : "") + "\n"
        return out
    }
}
