import AuditCore
import Foundation

/// One self-contained HTML file (no external assets): for each snapshot, the screen drawn
/// to scale as SVG — every element's frame, findings outlined by severity, a click or hover
/// showing the finding and its evidence — and a sortable table of all findings.
enum HTMLFormatter {
    static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        var sections = ""
        var rows = ""
        var findingData: [JSON] = []
        var totals: [String: Int] = [:]
        for (snapshotIndex, result) in results.enumerated() {
            let title = escape(result.file)
            guard let report = result.report else {
                let error = result.error
                sections += "<section><h2>\(title)</h2><p class=\"failed\">Not audited: \(escape(error?.message ?? "")) "
                    + "(line \(error?.line ?? 0), column \(error?.column ?? 0))</p></section>\n"
                continue
            }
            var parsed = context.sources[result.file].flatMap { try? SnapshotParser().parse($0) }
            // The screenshot, when one was sent, is drawn under the outlines at its mapping.
            var picture: (data: String, type: String, width: Double, height: Double)?
            if let bytes = context.screenshots[result.file], let snapshot = parsed, let image = try? ImageDecoder.decode(bytes),
               let mapped = try? snapshot.attaching(image), let mapping = mapped.screenshot {
                parsed = mapped
                let type = image.format == .png ? "image/png" : "image/jpeg"
                picture = (Data(bytes).base64EncodedString(), type, Double(image.width) / mapping.pixelsPerPoint, Double(image.height) / mapping.pixelsPerPoint)
            }
            var width = parsed?.width ?? 390, height = parsed?.height ?? 844
            if let parsed {
                for element in parsed.elements {
                    if let frame = element.frame {
                        width = max(width, min(frame.maxX, 4000))
                        height = max(height, min(frame.maxY, 20000))
                    }
                }
            }
            var svg = "<svg class=\"screen\" viewBox=\"0 0 \(fmt(width)) \(fmt(height))\" width=\"\(fmt(min(360, width)))\" role=\"img\" aria-label=\"Screen \(title) with findings outlined\">\n"
            svg += "<rect x=\"0\" y=\"0\" width=\"\(fmt(width))\" height=\"\(fmt(height))\" class=\"canvas\"/>\n"
            if let picture {
                svg += "<image class=\"screenshot\" x=\"0\" y=\"0\" width=\"\(fmt(picture.width))\" height=\"\(fmt(picture.height))\" preserveAspectRatio=\"none\" href=\"data:\(picture.type);base64,\(picture.data)\"/>\n"
            }
            if let parsed, picture == nil {
                for index in parsed.elements.indices {
                    let element = parsed.elements[index]
                    guard let frame = element.frame, !frame.isEmpty else { continue }
                    let fill = element.background.map { " style=\"fill:\($0.hex);fill-opacity:\(Double($0.alpha) / 255 * element.effectiveOpacity)\"" } ?? ""
                    let name = parsed.node(index).accessibleName.map { " “\(escape(String($0.prefix(60))))”" } ?? ""
                    svg += "<rect class=\"el\" x=\"\(fmt(frame.x))\" y=\"\(fmt(frame.y))\" width=\"\(fmt(frame.width))\" height=\"\(fmt(frame.height))\"\(fill)><title>\(element.role.name)\(name)</title></rect>\n"
                    if let text = parsed.node(index).visibleText ?? (element.role == .button ? parsed.node(index).label : nil), frame.height >= 8 {
                        let size = min(element.fontSize ?? 14, frame.height * 0.75)
                        let color = element.foreground.map { "fill:\($0.hex)" } ?? "fill:#3a3a3c"
                        svg += "<text class=\"label\" x=\"\(fmt(frame.x + 3))\" y=\"\(fmt(frame.y + min(frame.height, size) * 0.95))\" font-size=\"\(fmt(size))\" style=\"\(color)\">\(escape(String(text.prefix(60))))</text>\n"
                    }
                }
            }
            for finding in result.findings {
                let severity = finding.severity.rawValue
                totals[severity, default: 0] += 1
                let id = findingData.count
                findingData.append(.object([
                    ("file", .string(result.file)), ("rule", .string(finding.rule)), ("severity", .string(severity)),
                    ("message", .string(finding.message)), ("element", finding.element.map(JSON.string) ?? .null),
                    ("path", finding.path.map(JSON.string) ?? .null), ("line", finding.line.map(JSON.int) ?? .null),
                    ("wcag", .array(finding.wcag.map(JSON.string))),
                    ("evidence", .object(finding.evidence)), ("fingerprint", .string(finding.fingerprint)),
                ]))
                if let frame = finding.frame {
                    svg += "<rect class=\"finding \(severity)\" data-id=\"\(id)\" tabindex=\"0\" x=\"\(fmt(frame.x))\" y=\"\(fmt(frame.y))\" width=\"\(fmt(max(frame.width, 2)))\" height=\"\(fmt(max(frame.height, 2)))\"><title>\(escape(finding.rule)): \(escape(finding.message))</title></rect>\n"
                }
                rows += "<tr data-id=\"\(id)\"><td>\(title)</td><td>\(finding.line ?? 0)</td><td class=\"\(severity)\">\(severity)</td>"
                    + "<td><code>\(escape(finding.rule))</code></td><td>\(escape(finding.element ?? ""))</td>"
                    + "<td>\(escape(finding.message))</td><td>\(escape(finding.wcag.joined(separator: ", ")))</td></tr>\n"
            }
            svg += "</svg>"
            let summary = report.summary
            let heading = [report.snapshot.app, report.snapshot.screen].compactMap { $0 }.joined(separator: " · ")
            sections += """
                <section id="snapshot-\(snapshotIndex)"><h2>\(title)</h2>
                <p class="meta">\(escape(heading)) — \(escape(report.ruleSet)), \(report.snapshot.elements) elements:
                \(summary.error) errors, \(summary.warning) warnings, \(summary.notice) notices, \(summary.incomplete) incomplete</p>
                <div class="pair">\(svg)<aside class="details" aria-live="polite"><p>Click or hover an outlined element to see its finding.</p></aside></div>
                </section>

                """
        }
        // Inside <script> the browser looks for `</script` and, after `<!--`, for `<script`
        // (which swallows the rest of the page into the script): no `<` may appear raw.
        // `\u003C` is the same character to JSON and JavaScript. U+2028/9 end a line in
        // older JavaScript: escaped too.
        let data = JSON.array(findingData).rendered()
            .replacingOccurrences(of: "<", with: "\\u003C")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
            .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>auditd report</title>
            <style>
            body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1c1c1e;background:#fff}
            h1{font-size:24px}h2{font-size:18px;margin-top:32px}.meta{color:#3a3a3c}
            .pair{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}
            svg.screen{border:1px solid #8e8e93;background:#fafafa;flex:none}
            .canvas{fill:#fff}.el{fill:none;stroke:#aeaeb2;stroke-width:0.75}text.label{pointer-events:none;font-family:system-ui,sans-serif}
            .finding{fill:none;stroke-width:3;cursor:pointer}.finding.error{stroke:#d70015}.finding.warning{stroke:#b25000}.finding.notice{stroke:#0040dd}
            .finding:hover,.finding:focus,.finding.active{fill:rgba(255,204,0,.35);outline:none}
            aside.details{max-width:520px;border:1px solid #c7c7cc;border-radius:8px;padding:12px;min-height:80px}
            aside pre{white-space:pre-wrap;font-size:13px;background:#f2f2f7;padding:8px;border-radius:6px}
            table{border-collapse:collapse;margin-top:16px;width:100%}th,td{border-bottom:1px solid #d1d1d6;padding:6px 8px;text-align:left;vertical-align:top}
            th{cursor:pointer;background:#f2f2f7;user-select:none}th::after{content:" ↕";color:#8e8e93}
            td.error{color:#d70015;font-weight:600}td.warning{color:#b25000;font-weight:600}td.notice{color:#0040dd}
            .failed{color:#d70015}.totals span{margin-right:16px}
            </style></head><body>
            <h1>Accessibility findings</h1>
            <p class="totals"><span>\(results.count) snapshots</span><span>\(totals["error"] ?? 0) errors</span><span>\(totals["warning"] ?? 0) warnings</span><span>\(totals["notice"] ?? 0) notices</span></p>
            \(sections)
            <h2>All findings</h2>
            <table id="findings"><thead><tr><th>File</th><th>Line</th><th>Severity</th><th>Rule</th><th>Element</th><th>Message</th><th>WCAG</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            <script>
            const findings = \(data);
            function show(id, target) {
              const f = findings[id]; if (!f) return;
              const section = target.closest('section'); if (!section) return;
              section.querySelectorAll('.finding.active').forEach(e => e.classList.remove('active'));
              section.querySelectorAll('.finding[data-id="' + id + '"]').forEach(e => e.classList.add('active'));
              const aside = section.querySelector('aside.details');
              const esc = s => String(s ?? '').replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
              aside.innerHTML = '<p><strong>' + esc(f.severity) + '</strong> <code>' + esc(f.rule) + '</code> WCAG ' + esc((f.wcag||[]).join(', ')) + '</p>'
                + '<p>' + esc(f.message) + '</p><p>Element <code>' + esc(f.element || f.path) + '</code>, line ' + esc(f.line) + '</p>'
                + '<pre>' + esc(JSON.stringify(f.evidence, null, 2)) + '</pre>';
            }
            document.querySelectorAll('.finding').forEach(e => {
              ['click', 'mouseenter', 'focus'].forEach(kind => e.addEventListener(kind, () => show(e.dataset.id, e)));
            });
            document.querySelectorAll('#findings th').forEach((th, column) => th.addEventListener('click', () => {
              const body = document.querySelector('#findings tbody');
              const ascending = th.dataset.order !== 'asc'; th.dataset.order = ascending ? 'asc' : 'desc';
              const rank = {error: 0, warning: 1, notice: 2};
              const key = row => { const t = row.children[column].textContent; return column === 1 ? Number(t) : column === 2 ? rank[t] : t; };
              [...body.rows].sort((a, b) => { const x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1); })
                .forEach(row => body.appendChild(row));
            }));
            </script>
            </body></html>

            """
    }

    static func escape(_ text: String) -> String { JUnitFormatter.escape(text).replacingOccurrences(of: "&#10;", with: " ") }

    static func fmt(_ value: Double) -> String { value.formattedForReport }
}
