import AuditCore
import Foundation

/// JUnit XML (Apache Ant schema): a testsuite per snapshot, a testcase per rule of the rule
/// set, and per defect of a rule that has findings. A testcase fails exactly when its
/// findings fail the gate — at or above `--fail-on`, and with a baseline (`--baseline`,
/// `--since-build`) only new or regressed — so a CI's test view agrees with auditctl's exit
/// status; the other findings are skipped testcases whose message gives their class and
/// severity (the schema has no properties on a testcase), and findings fixed since the
/// baseline are passing testcases. A defect's instances (the same problem on every row of a
/// list) share a testcase whose message lists them. Testcases are named by the rule and the
/// element as a person names it (`label.missing: unnamed image in row “Milk”`), as the HTML
/// report names it, not by its path; incomplete rules are skipped testcases.
package enum JUnitFormatter {
    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
        let timestamp = Timestamp.now()
        let host = ProcessInfo.processInfo.hostName
        for (index, result) in results.enumerated() {
            let snapshot = result.report?.snapshot
            let suiteName = escape(result.file)
            let classname = escape(tokenize([snapshot?.app, snapshot?.screen].compactMap { $0 }.joined(separator: ".")).ifEmpty("auditd"))
            // The snapshot read again, to name elements as a person does.
            let screen = context.sources[result.file].map { HTMLScreen(snapshotIndex: index, title: result.file, source: $0, screenshot: nil) }
            func name(_ finding: ReportFinding) -> String {
                screen?.personName(line: finding.line, column: finding.column) ?? finding.element ?? shortPath(finding.path) ?? "the screen"
            }
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
                    let findings = result.findings.indices.filter { result.findings[$0].rule == id }
                    let incomplete = result.incomplete.filter { $0.rule == id }
                    if findings.isEmpty, let first = incomplete.first {
                        skipped += 1
                        cases.append(
                            "    <testcase name=\"\(escape(id))\" classname=\"\(classname)\" time=\"0\">\n      <skipped message=\"\(escape("incomplete: " + first.reason))\"/>\n    </testcase>\n"
                        )
                    } else if findings.isEmpty {
                        cases.append("    <testcase name=\"\(escape(id))\" classname=\"\(classname)\" time=\"0\"/>\n")
                    }
                    // One testcase per defect (docs/findings.md) and verdict: its instances —
                    // the same problem on every row of a list — are listed in its message.
                    for group in defects(findings, of: result, context: context) {
                        let finding = result.findings[group[0]]
                        let fails = result.failsGate(group[0], failOn: context.failOn, hasBaseline: context.hasBaseline)
                        let element = name(finding) + (group.count > 1 ? " ×\(group.count)" : "")
                        func location(_ item: ReportFinding) -> String { "\(result.file):\(item.line ?? 0):\(item.column ?? 0)" }
                        let state = context.hasBaseline ? (result.baselineState(group[0]) ?? "new") : nil
                        var details = "\(location(finding)) [\(finding.severity.rawValue)\(state.map { ", " + $0 } ?? "")] \(finding.message)"
                        details += "\nelement: \(name(finding))" + (finding.path.map { "\npath: " + $0 } ?? "")
                        details += "\nevidence: \(JSON.object(finding.evidence).rendered())"
                        if group.count > 1 {
                            details += "\n\(group.count) instances of one defect; also at:"
                            for other in group.dropFirst() { details += "\n  \(location(result.findings[other])) \(name(result.findings[other]))" }
                        }
                        let testName = escape(tokenize(id + ": " + element))
                        if fails {
                            failures += 1
                            cases.append(
                                "    <testcase name=\"\(testName)\" classname=\"\(classname)\" time=\"0\">\n      <failure message=\"\(escape(finding.message))\" type=\"\(finding.severity.rawValue)\">\(escape(details))</failure>\n    </testcase>\n"
                            )
                        } else {
                            skipped += 1
                            let why = notGated(finding.severity, state: state, context: context)
                            cases.append(
                                "    <testcase name=\"\(testName)\" classname=\"\(classname)\" time=\"0\">\n      <skipped message=\"\(escape(why))\">\(escape(details))</skipped>\n    </testcase>\n"
                            )
                        }
                    }
                }
                // Fixed since the baseline: listed, and passing.
                for fixed in result.absent {
                    let element = fixed.element ?? shortPath(fixed.path) ?? "the screen"
                    cases.append("    <testcase name=\"\(escape(tokenize(fixed.rule + ": " + element + " (fixed)")))\" classname=\"\(classname)\" time=\"0\"/>\n")
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
            out += "      <property name=\"fail-on\" value=\"\(context.failOn?.rawValue ?? "never")\"/>\n"
            if context.hasBaseline {
                let counts = result.baselineCounts
                out += "      <property name=\"baseline\" value=\"\(escape(context.baselineTitle))\"/>\n"
                out += "      <property name=\"new\" value=\"\(counts.new)\"/>\n"
                out += "      <property name=\"regressed\" value=\"\(counts.regressed)\"/>\n"
                out += "      <property name=\"fixed\" value=\"\(counts.fixed)\"/>\n"
            }
            out += "    </properties>\n"
            out += cases.joined()
            out += "    <system-out/>\n    <system-err/>\n  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// Why a finding does not fail the gate, with its class and severity: "unchanged error:
    /// only new and regressed findings fail", "notice: below --fail-on error".
    static func notGated(_ severity: Severity, state: String?, context: FormatContext) -> String {
        let what = (state.map { $0 + " " } ?? "") + severity.rawValue
        guard let failOn = context.failOn else { return what + ": --fail-on never, nothing fails" }
        if severity < failOn { return what + ": below --fail-on " + failOn.rawValue }
        return what + ": only new and regressed findings fail (against " + context.baselineTitle + ")"
    }

    /// The last step of a path (`XCUIElementTypeButton[2]`), for an element without an id
    /// that cannot be named otherwise.
    static func shortPath(_ path: String?) -> String? {
        path.flatMap { $0.split(separator: "/").last.map(String.init) }
    }

    /// The findings at `indices` (of one rule) grouped by defect, severity and verdict (one
    /// instance may fail the gate where another, unchanged, does not), in order of first
    /// instance; a finding without a defect is its own.
    static func defects(_ indices: [Int], of result: SnapshotResult, context: FormatContext) -> [[Int]] {
        var groups: [[Int]] = []
        var positions: [String: Int] = [:]
        for index in indices {
            let finding = result.findings[index]
            let fails = result.failsGate(index, failOn: context.failOn, hasBaseline: context.hasBaseline)
            let key = (finding.defect ?? "fingerprint:" + finding.fingerprint) + "|" + finding.severity.rawValue + "|" + (fails ? "fail" : "pass")
            if let position = positions[key] {
                groups[position].append(index)
            } else {
                positions[key] = groups.count
                groups.append([index])
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
