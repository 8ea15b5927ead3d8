import AuditCore

/// One self-contained HTML page (nothing loaded from elsewhere) a QA lead sends after a
/// build: a summary on top (with a baseline, new / unchanged / fixed first); filters by
/// severity, rule and baseline state; then each snapshot — its screen (the screenshot when
/// one was sent, else a wireframe) with a numbered marker on each finding's element, and
/// beside it the findings in the same numbers with their evidence, WCAG criteria, how to
/// fix and the checks that could not judge. The parts: `HTML/`.
package enum HTMLFormatter {
    /// Past this many snapshots the browser lays out each section only as it comes into
    /// view (`content-visibility`): 500 snapshots load in 2 s instead of 10. Tools that
    /// measure sections not yet shown (axe-core's target sizes) see them unlaid there.
    package static let longReport = 40

    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        var sections = ""
        // A capture format's limit that several snapshots share is said once, in the summary.
        let shared = SharedIncompletes(results)
        for (index, result) in results.enumerated() {
            sections += section(index, result, context: context, shared: shared)
        }
        let rules = Set(results.flatMap { $0.findings.map(\.rule) }).sorted()
        let total = results.reduce(0) { $0 + $1.findings.count }
        var filters = "<form id=\"filters\" class=\"filters\" aria-labelledby=\"filters-heading\">\n<h2 id=\"filters-heading\">Filters</h2>\n"
        filters += "<fieldset><legend>Severity</legend>"
        for severity in Severity.allCases.reversed() {
            filters += "<label><input type=\"checkbox\" name=\"severity\" value=\"\(severity.rawValue)\" checked> \(HTMLText.severityLabel(severity))</label>"
        }
        filters += "</fieldset>\n<label>Rule <select name=\"rule\"><option value=\"\">all rules</option>"
        for rule in rules { filters += "<option value=\"\(HTMLText.escape(rule))\">\(HTMLText.escape(rule))</option>" }
        filters += "</select></label>\n"
        if context.hasBaseline {
            filters +=
                "<label>Baseline <select name=\"state\"><option value=\"\">all</option><option value=\"new\">new</option><option value=\"unchanged\">unchanged</option></select></label>\n"
        }
        filters += "<p id=\"shown\" role=\"status\">Showing \(total) of \(total) findings</p>\n</form>\n"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Accessibility report — \(HTMLText.count(results.count, "snapshot")), \(HTMLText.count(total, "finding"))</title>
            <style>
            \(HTMLAssets.style)
            </style></head><body\(results.count > longReport ? " class=\"long\"" : "")>
            <a class="skip" href="#main">Skip to the findings</a>
            <header><h1>Accessibility report</h1>
            <p class="meta">auditd \(AuditCoreVersion.string): \(HTMLText.count(results.count, "snapshot")), \(HTMLText.count(total, "finding")). Each screen is drawn with a numbered marker on every finding's element; the list beside it says each finding in the same numbers.</p></header>
            <main id="main">
            \(HTMLSummary.render(results, context: context))\(HTMLSummary.sharedIncompletes(shared))\(filters)\(sections)\(HTMLFindingList.helpByRule(results))</main>
            <script>
            \(HTMLAssets.script)
            </script>
            </body></html>

            """
    }

    /// One snapshot: heading, counts, and its drawing beside its findings.
    package static func section(_ index: Int, _ result: SnapshotResult, context: FormatContext, shared: SharedIncompletes? = nil) -> String {
        let title = HTMLText.escape(result.file)
        let headingID = "snapshot-\(index)-heading"
        guard let report = result.report else {
            let error = result.error
            return "<section class=\"snapshot\" id=\"snapshot-\(index)\" aria-labelledby=\"\(headingID)\"><h2 id=\"\(headingID)\">\(title)</h2>"
                + "<p class=\"failed\">Not audited: \(HTMLText.escape(error?.message ?? "")) [\(HTMLText.escape(error?.code ?? ""))]"
                + (error?.line.map { " (line \($0), column \(error?.column ?? 0))" } ?? "") + "</p></section>\n"
        }
        let name = [report.snapshot.app, report.snapshot.screen, report.snapshot.build.map { "build \($0)" }].compactMap { $0 }.joined(separator: " · ")
        let numbered = result.findings.enumerated().map { offset, finding in (number: offset + 1, finding: finding, anchor: "\(index)-\(offset + 1)") }
        let unchanged = Set(numbered.indices.filter { context.hasBaseline && result.baselineState($0) == "unchanged" }.map { numbered[$0].anchor })
        let grouped = HTMLMarkers.group(numbered)
        let screen = HTMLScreen(snapshotIndex: index, title: title, source: context.sources[result.file], screenshot: context.screenshots[result.file])
        let size = screen.size(of: grouped.markers)
        let landscape = size.width > size.height
        let summary = report.summary
        var counts =
            "\(HTMLText.count(summary.error, "error")), \(HTMLText.count(summary.warning, "warning")), \(HTMLText.count(summary.notice, "notice")), \(summary.incomplete) incomplete"
        if summary.suppressed > 0 { counts += ", \(summary.suppressed) suppressed" }
        return """
            <section class="snapshot" id="snapshot-\(index)" aria-labelledby="\(headingID)">
            <h2 id="\(headingID)">\(title)</h2>
            <p class="meta">\(HTMLText.escape(name))\(name.isEmpty ? "" : " — ")\(HTMLText.escape(report.ruleSet)), \(report.snapshot.elements) elements: \(counts)</p>
            <div class="pair\(landscape ? " wide" : "")">
            <figure>\(screen.render(grouped.markers, size: size, unchanged: unchanged, baseline: context.baselineTitle))<figcaption>\(screen.screenshot == nil ? "Drawn from the snapshot's frames" : "The screenshot sent with the snapshot"); the findings are listed beside it.\(Self.originalLink(screen, href: context.screenshotLinks[result.file])) <button type="button" class="enlarge" aria-pressed="\(landscape)">Full width</button></figcaption></figure>
            <div class="list"><h3 id="\(headingID)-list">Findings of \(title)</h3>
            \(HTMLFindingList.render(numbered, result: result, headingID: "\(headingID)-list", heard: { screen.heard(line: $0.line, column: $0.column) }, named: { screen.personName(line: $0.line, column: $0.column) }, unit: screen.frameUnit,
                crop: { finding, number in finding.frame.map { screen.crop(of: $0, number: number) } ?? "" }, markerOf: grouped.markerOf,
                baseline: context.hasBaseline ? context.baselineTitle : nil, shared: shared))
            \(screen.transcriptList(headingID: headingID))</div>
            </div>
            </section>

            """
    }

    /// A link to the screenshot as sent, at full resolution (the drawing embeds a copy
    /// scaled to what is drawn), when auditctl knows where its file is.
    static func originalLink(_ screen: HTMLScreen, href: String?) -> String {
        guard let href, let pixels = screen.screenshotPixels else { return "" }
        return " <a class=\"original\" href=\"\(HTMLText.escape(href))\">Original screenshot (\(pixels.width) × \(pixels.height) px)</a>"
    }
}
