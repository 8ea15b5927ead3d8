import AuditCore

/// `--format json`: the daemon's reports (docs/findings.md), one array; each with the file it came
/// from and, with a baseline, each finding's `baselineState`.
/// `--format jsonl`: one finding a line, with file, app, build and screen.
package enum JSONFormatters {
    /// Writes `--format json` to `out` as it is formatted (standard output or a file, in
    /// pieces: the reports run to tens of megabytes and are never held whole in memory).
    package static func writeJSON<Sink: ByteSink>(_ results: [SnapshotResult], context: FormatContext, to out: inout Sink) {
        out.write(byte: UInt8(ascii: "["))
        for (offset, result) in results.enumerated() {
            if offset > 0 { out.write(byte: UInt8(ascii: ",")) }
            out.write(byte: 0x0A)
            out.write(byte: UInt8(ascii: " ")); out.write(byte: UInt8(ascii: " "))
            if result.error == nil, !context.hasBaseline, !result.body.isEmpty {
                // The report as the daemon wrote it, re-indented, with `file` put first.
                var file = Array(#""file": "#.utf8)
                JSON.string(result.file).write(to: &file)
                JSONReformatter.append(result.body[...], level: 1, firstMember: file, to: &out)
            } else {
                item(result, context: context).write(to: &out, pretty: true, indent: 1)
            }
        }
        if !results.isEmpty { out.write(byte: 0x0A) }
        out.write(byte: UInt8(ascii: "]")); out.write(byte: 0x0A)
    }

    /// One report as a `JSON` value: errors, and reports annotated with a baseline.
    private static func item(_ result: SnapshotResult, context: FormatContext) -> JSON {
        if let error = result.error {
            return .object([("file", .string(result.file)), ("status", .int(result.status))] + error.members)
        }
        guard let report = result.report else { return .null }
        var members = report.members
        members.insert(("file", .string(result.file)), at: 0)
        if context.hasBaseline, let index = members.firstIndex(where: { $0.0 == "findings" }) {
            members[index].1 = .array(
                result.findings.enumerated().map { offset, finding in
                    .object(finding.fields + [("baselineState", .string(result.baselineState(offset) ?? "new"))])
                })
            members.append(("absent", .array(result.absent.map(\.json))))
        }
        return .object(members)
    }

    package static func jsonl(_ results: [SnapshotResult], context: FormatContext) -> String {
        var out = ""
        for result in results {
            guard let snapshot = result.report?.snapshot else { continue }
            for (index, finding) in result.findings.enumerated() {
                var line: [(String, JSON)] =
                    [
                        ("file", .string(result.file)), ("app", snapshot.app.map(JSON.string) ?? .null),
                        ("build", snapshot.build.map(JSON.string) ?? .null), ("screen", snapshot.screen.map(JSON.string) ?? .null),
                    ] + finding.fields
                if let state = result.baselineState(index) { line.append(("baselineState", .string(state))) }
                out += JSON.object(line).rendered() + "\n"
            }
        }
        return out
    }
}
