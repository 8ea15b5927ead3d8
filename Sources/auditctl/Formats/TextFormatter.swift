import AuditCore

/// Compiler-style lines editors and CI annotate:
/// `Examples/checkout.xml:12:5: error: [contrast.text] Text contrast 2.93:1 is below 4.5:1 (#C7C7CC on #FFFFFF)`,
/// grouped per snapshot with a summary.
enum TextFormatter {
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        func paint(_ text: String, _ code: String) -> String { context.color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        // Everything that comes from a snapshot, a file name or the daemon is escaped.
        func e(_ text: String?) -> String { TerminalText.escape(text ?? "") }
        var out = ""
        var totals: [Severity: Int] = [:]
        var totalIncomplete = 0
        for result in results {
            if let error = result.error?["error"] {
                let line = error["line"]?.intValue.map { ":\($0)" } ?? ""
                let column = error["column"]?.intValue.map { ":\($0)" } ?? ""
                out += "\(e(result.file))\(line)\(column): \(paint("error", "1;31")): \(e(error["message"]?.stringValue ?? "failed")) [\(e(error["code"]?.stringValue ?? "\(result.status)"))]\n"
                if let hint = error["hint"]?.stringValue { out += "\(e(result.file))\(line)\(column): note: \(e(hint))\n" }
                continue
            }
            guard let report = result.report else { continue }
            let snapshot = report["snapshot"]
            let title = [snapshot?["app"]?.stringValue, snapshot?["screen"]?.stringValue, snapshot?["build"]?.stringValue.map { "build \($0)" }]
                .compactMap { $0 }.map(TerminalText.escape).joined(separator: " · ")
            out += paint("== \(e(result.file))", "1") + (title.isEmpty ? "" : " (\(title))")
                + " — \(e(report["ruleset"]?.stringValue ?? "?")), \(snapshot?["elements"]?.intValue ?? 0) elements\n"
            for (index, finding) in result.findings.enumerated() {
                let severity = result.severity(of: finding)
                totals[severity, default: 0] += 1
                let line = finding["line"]?.intValue ?? 0
                let column = finding["column"]?.intValue ?? 0
                let location = line > 0 ? "\(e(result.file)):\(line):\(column)" : e(result.file)
                let color = severity == .error ? "1;31" : severity == .warning ? "1;33" : "1;34"
                var text = "\(location): \(paint(severity.rawValue, color)): [\(e(finding["rule"]?.stringValue ?? "?"))] \(e(finding["message"]?.stringValue))"
                if let element = finding["element"]?.stringValue { text += " (\(e(element)))" }
                if let state = result.baselineState(index) { text += " [\(state)]" }
                out += text + "\n"
            }
            for item in result.incomplete {
                totalIncomplete += 1
                let line = item["line"]?.intValue.map { ":\($0)" } ?? ""
                let element = item["element"]?.stringValue.map { " (\(e($0)))" } ?? ""
                out += "\(e(result.file))\(line): \(paint("incomplete", "2")): [\(e(item["rule"]?.stringValue ?? "?"))] \(e(item["reason"]?.stringValue))\(element)\n"
            }
            for fixed in result.absent {
                out += "\(e(result.file)): fixed: [\(e(fixed["rule"]?.stringValue ?? "?"))] \(e(fixed["message"]?.stringValue))\n"
            }
            let summary = report["summary"]
            out += "   \(summary?["error"]?.intValue ?? 0) errors, \(summary?["warning"]?.intValue ?? 0) warnings, "
                + "\(summary?["notice"]?.intValue ?? 0) notices, \(summary?["incomplete"]?.intValue ?? 0) incomplete"
                + ((summary?["suppressed"]?.intValue ?? 0) > 0 ? ", \(summary?["suppressed"]?.intValue ?? 0) suppressed" : "") + "\n"
        }
        let failed = results.filter { $0.error != nil }.count
        out += "\(results.count) snapshot\(results.count == 1 ? "" : "s"): \(totals[.error] ?? 0) errors, \(totals[.warning] ?? 0) warnings, "
            + "\(totals[.notice] ?? 0) notices, \(totalIncomplete) incomplete" + (failed > 0 ? ", \(failed) not audited" : "") + "\n"
        return out
    }
}
