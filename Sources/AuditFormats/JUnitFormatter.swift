import AuditCore
import Foundation

/// JUnit XML (Apache Ant schema): a testsuite per snapshot, a testcase per rule of the rule
/// set. The schema allows one failure per testcase, so a rule with several findings gets
/// one testcase per defect (`rule-id element`, `×N` when it has N instances, which its
/// failure lists), each with its failure; incomplete rules are skipped testcases.
package enum JUnitFormatter {
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
        let timestamp = Timestamp.now()
        let host = ProcessInfo.processInfo.hostName
        for (index, result) in results.enumerated() {
            let snapshot = result.report?.snapshot
            let suiteName = escape(result.file)
            let classname = escape(tokenize([snapshot?.app, snapshot?.screen].compactMap { $0 }.joined(separator: ".")).ifEmpty("auditd"))
            var cases: [String] = []
            var failures = 0, errors = 0, skipped = 0
            if let error = result.error {
                errors = 1
                cases.append(
                    "    <testcase name=\"snapshot\" classname=\"\(classname)\" time=\"0\">\n      <error message=\"\(escape(error.message))\" type=\"\(escape(error.code))\">\(escape(result.file)):\(error.line ?? 0):\(error.column ?? 0)</error>\n    </testcase>\n"
                )
            } else {
                var ruleIDs = result.report.flatMap { context.ruleSets[$0.ruleSet] }?.entries.map(\.id) ?? []
                for id in result.findings.map(\.rule) + result.incomplete.map(\.rule) where !ruleIDs.contains(id) {
                    ruleIDs.append(id)
                }
                for id in ruleIDs {
                    let findings = result.findings.filter { $0.rule == id }
                    let incomplete = result.incomplete.filter { $0.rule == id }
                    if findings.isEmpty, let first = incomplete.first {
                        skipped += 1
                        cases.append(
                            "    <testcase name=\"\(escape(id))\" classname=\"\(classname)\" time=\"0\">\n      <skipped message=\"\(escape("incomplete: " + first.reason))\"/>\n    </testcase>\n"
                        )
                    } else if findings.isEmpty {
                        cases.append("    <testcase name=\"\(escape(id))\" classname=\"\(classname)\" time=\"0\"/>\n")
                    }
                    // One testcase per defect (docs/findings.md): its instances — the same
                    // problem on every row of a list — are listed in its failure.
                    for group in defects(findings) {
                        failures += 1
                        let finding = group[0]
                        let element = (finding.elementName ?? "snapshot") + (group.count > 1 ? " ×\(group.count)" : "")
                        func location(_ item: ReportFinding) -> String { "\(result.file):\(item.line ?? 0):\(item.column ?? 0)" }
                        var details = "\(location(finding)) [\(finding.severity.rawValue)] \(finding.message)\nevidence: \(JSON.object(finding.evidence).rendered())"
                        if group.count > 1 {
                            details += "\n\(group.count) instances of one defect; also at:"
                            for other in group.dropFirst() { details += "\n  \(location(other)) \(other.elementName ?? other.path ?? "")" }
                        }
                        cases.append(
                            "    <testcase name=\"\(escape(id + " " + element))\" classname=\"\(classname)\" time=\"0\">\n      <failure message=\"\(escape(finding.message))\" type=\"\(finding.severity.rawValue)\">\(escape(details))</failure>\n    </testcase>\n"
                        )
                    }
                }
            }
            let seconds = (result.report?.durationMilliseconds ?? 0) / 1000
            out +=
                "  <testsuite name=\"\(suiteName)\" package=\"\(escape(tokenize(result.file)))\" id=\"\(index)\" timestamp=\"\(String(Timestamp.iso8601(timestamp).prefix(19)))\" hostname=\"\(escape(host.isEmpty ? "localhost" : host))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(String(format: "%.3f", seconds))\">\n"
            out += "    <properties>\n"
            out += "      <property name=\"ruleset\" value=\"\(escape(result.report?.ruleSet ?? ""))\"/>\n"
            out += "      <property name=\"app\" value=\"\(escape(snapshot?.app ?? ""))\"/>\n"
            out += "      <property name=\"build\" value=\"\(escape(snapshot?.build ?? ""))\"/>\n"
            out += "      <property name=\"screen\" value=\"\(escape(snapshot?.screen ?? ""))\"/>\n"
            out += "    </properties>\n"
            out += cases.joined()
            out += "    <system-out/>\n    <system-err/>\n  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// `findings` (of one rule) grouped by defect and severity, in order of first instance;
    /// a finding without a defect is its own.
    static func defects(_ findings: [ReportFinding]) -> [[ReportFinding]] {
        var groups: [[ReportFinding]] = []
        var positions: [String: Int] = [:]
        for finding in findings {
            let key = (finding.defect ?? "fingerprint:" + finding.fingerprint) + "|" + finding.severity.rawValue
            if let position = positions[key] {
                groups[position].append(finding)
            } else {
                positions[key] = groups.count
                groups.append([finding])
            }
        }
        return groups
    }

    static func escape(_ text: String) -> String { MarkupText.escape(text, breaks: .references) }

    /// xs:token forbids leading/trailing and repeated spaces.
    static func tokenize(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

extension String {
    func ifEmpty(_ fallback: String) -> String { isEmpty ? fallback : self }
}
