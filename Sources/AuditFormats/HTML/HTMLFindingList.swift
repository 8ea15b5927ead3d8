import AuditCore

/// A snapshot's findings beside its drawing, in the markers' numbers: severity (icon and
/// word), rule, message, element, evidence, WCAG criteria linked, how to fix, and the
/// baseline state; then the checks that could not judge, with their reasons.
package enum HTMLFindingList {
    /// The list; `baseline` is what the baseline is called (``FormatContext/baselineTitle``),
    /// `nil` when the findings were not compared with one.
    package static func render(
        _ numbered: [(number: Int, finding: ReportFinding, anchor: String)], result: SnapshotResult,
        headingID: String, heard: (ReportFinding) -> (stop: Int, speech: String)? = { _ in nil },
        named: (ReportFinding) -> String? = { _ in nil }, unit: String = "pt", crop: (ReportFinding, Int) -> String = { _, _ in "" },
        markerOf: [String: String] = [:], baseline: String?, shared: SharedIncompletes? = nil
    ) -> String {
        var out = ""
        if numbered.isEmpty {
            out += "<p class=\"none\">No findings.</p>\n"
        } else {
            out += "<ol class=\"findings\" aria-labelledby=\"\(headingID)\">\n"
            // The numbers of each defect's instances (docs/findings.md): every instance
            // stays listed, and says which defect it belongs to.
            var instances: [String: [Int]] = [:]
            for item in numbered { instances[defectKey(item.finding), default: []].append(item.number) }
            for (offset, item) in numbered.enumerated() {
                out += entry(
                    item, marker: markerOf[item.anchor], name: named(item.finding), unit: unit, crop: crop(item.finding, item.number),
                    state: baseline == nil ? nil : (result.baselineState(offset) ?? "new"),
                    heard: heard(item.finding),
                    instances: instances[defectKey(item.finding)] ?? [])
            }
            out += "</ol>\n"
        }
        if let baseline, !result.absent.isEmpty {
            out += "<h4>Fixed since \(HTMLText.escape(baseline))</h4>\n<ul class=\"fixed\">\n"
            for fixed in result.absent {
                out +=
                    "<li data-state=\"absent\"><code>\(HTMLText.escape(fixed.rule))</code> \(HTMLText.escape(HTMLText.readable(fixed.message)))"
                    + (fixed.elementName.map { " <span class=\"element\">(\(HTMLText.escape($0)))</span>" } ?? "") + "</li>\n"
            }
            out += "</ul>\n"
        }
        // What the run's summary says once for every snapshot it applies to is left out here.
        let own = result.incomplete.filter { !(shared?.contains($0) ?? false) }
        let elsewhere = result.incomplete.count - own.count
        if !own.isEmpty || elsewhere > 0 {
            out += "<details class=\"incomplete\"><summary>\(HTMLText.count(result.incomplete.count, "check")) could not judge</summary><ul>\n"
            if elsewhere > 0 {
                out +=
                    "<li class=\"shared\">\(HTMLText.count(elsewhere, "limit")) of the capture format, said once for the run: <a href=\"#not-judged\">Not judged on several snapshots</a></li>\n"
            }
            for item in own {
                out +=
                    "<li><code>\(HTMLText.escape(item.rule))</code> \(HTMLText.escape(item.reason))"
                    + (item.element.map { " <span class=\"element\">(\(HTMLText.escape($0)))</span>" } ?? "")
                    + (item.line.map { ", line \($0)" } ?? "") + "</li>\n"
            }
            out += "</ul></details>\n"
        }
        return out
    }

    static func defectKey(_ finding: ReportFinding) -> String {
        (finding.defect ?? "fingerprint:" + finding.fingerprint) + "|" + finding.severity.rawValue
    }

    private static func entry(
        _ item: (number: Int, finding: ReportFinding, anchor: String), marker: String?, name: String?, unit: String, crop: String, state: String?,
        heard: (stop: Int, speech: String)?, instances: [Int]
    ) -> String {
        let finding = item.finding
        let severity = finding.severity.rawValue
        var attributes = "id=\"f-\(item.anchor)\" class=\"finding sev-\(severity)\" data-severity=\"\(severity)\" data-rule=\"\(HTMLText.escape(finding.rule))\" tabindex=\"-1\""
        if let state { attributes += " data-state=\"\(state)\"" }
        if let marker { attributes += " data-marker=\"\(marker)\"" }
        var out = "<li \(attributes)>\n<div class=\"head\">"
        let label = "Finding \(item.number): \(severity), \(finding.rule)"
        if let marker {
            out +=
                "<button type=\"button\" class=\"number\" aria-label=\"\(HTMLText.escape(label)): show on the screen\" aria-controls=\"\(marker)\">\(item.number)</button>"
        } else {
            out += "<span class=\"number\" aria-label=\"\(HTMLText.escape(label)), about the whole screen\">\(item.number)</span>"
        }
        out += " \(HTMLText.severityLabel(finding.severity)) <code class=\"rule\">\(HTMLText.escape(finding.rule))</code>"
        if let title = BuiltInRules.rule(id: finding.rule)?.description.title { out += " <span class=\"rule-title\">\(HTMLText.escape(title))</span>" }
        if let state { out += " <span class=\"state state-\(state)\">\(state)</span>" }
        out += "</div>\n\(crop)<p class=\"message\">\(HTMLText.escape(HTMLText.readable(finding.message)))</p>\n"
        // The element as a person names it ("button “Add” in the navigation bar"), its id,
        // its line, its frame rounded in the platform's unit; the XPath behind a disclosure.
        var place: [String] = []
        if let name { place.append("<span class=\"element-name\">\(HTMLText.escape(name))</span>") }
        if let id = finding.element { place.append("id <code>\(HTMLText.escape(id))</code>") }
        if let line = finding.line { place.append("line \(line)") }
        if let frame = finding.frame {
            let n = { (value: Double) in HTMLText.number(value.rounded()) }
            place.append("at \(n(frame.x)), \(n(frame.y)), \(n(frame.width)) × \(n(frame.height)) \(unit)")
        }
        if !place.isEmpty || finding.path != nil {
            out += "<p class=\"where\">\(place.joined(separator: ", "))</p>\n"
            if let path = finding.path {
                out += "<details class=\"path\"><summary>XPath</summary><code>\(HTMLText.escape(path))</code></details>\n"
            }
        }
        if instances.count > 1 {
            let others = instances.filter { $0 != item.number }
            let shown = others.prefix(12).map(String.init).joined(separator: ", ") + (others.count > 12 ? " and \(others.count - 12) more" : "")
            out +=
                "<p class=\"defect\">One defect, \(instances.count) instances: "
                + (instances.first == item.number ? "the same problem at findings \(shown)" : "the same problem as finding \(instances[0])") + "</p>\n"
        }
        // What a screen-reader user hears there: the finding as they meet it.
        if let heard { out += "<p class=\"heard\">Heard at stop \(heard.stop) as \(HTMLText.escape(heard.speech))</p>\n" }
        out += HTMLEvidence.render(finding.evidence)
        let criteria = finding.wcag.map { criterion -> String in
            let name = WCAGCriteria.names[criterion].map { " \($0.name)" } ?? ""
            guard let url = WCAGCriteria.understandingURL(criterion) else { return HTMLText.escape(criterion + name) }
            return "<a href=\"\(url)\">WCAG \(HTMLText.escape(criterion + name))</a>"
        }
        if !criteria.isEmpty { out += "<p class=\"wcag\">\(criteria.joined(separator: ", "))</p>\n" }
        if let help = BuiltInRules.rule(id: finding.rule)?.description.help {
            out += "<details class=\"help\"><summary>How to fix</summary><p>\(HTMLText.prose(help))</p></details>\n"
        }
        return out + "</li>\n"
    }
}

extension HTMLFindingList {
    /// Each rule's "how to fix" once, in the order the rules first appear: printed, this
    /// replaces the help under every finding (a printed report repeated it for each one).
    package static func helpByRule(_ results: [SnapshotResult]) -> String {
        var seen = Set<String>()
        var out = ""
        for result in results {
            for finding in result.findings where seen.insert(finding.rule).inserted {
                guard let description = BuiltInRules.rule(id: finding.rule)?.description else { continue }
                out +=
                    "<dt><code>\(HTMLText.escape(finding.rule))</code> \(HTMLText.escape(description.title))</dt><dd>\(HTMLText.prose(description.help))</dd>\n"
            }
        }
        guard !out.isEmpty else { return "" }
        return "<section class=\"help-by-rule\" aria-labelledby=\"help-heading\"><h2 id=\"help-heading\">How to fix, rule by rule</h2>\n<dl>\n\(out)</dl></section>\n"
    }
}
