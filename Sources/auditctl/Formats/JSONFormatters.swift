import AuditCore

/// `--format json`: the daemon's reports (SPEC §3), one array; each with the file it came
/// from and, with a baseline, each finding's `baselineState`.
/// `--format jsonl`: one finding a line, with file, app, build and screen.
enum JSONFormatters {
    /// Writes `--format json` to `out` as it is formatted (standard output or a file, in
    /// pieces: the reports run to tens of megabytes and are never held whole in memory).
    static func writeJSON<Sink: ByteSink>(_ results: [SnapshotResult], context: FormatContext, to out: inout Sink) {
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
            return .object([("file", .string(result.file)), ("status", .int(result.status))] + (error.objectValue ?? []))
        }
        guard case .object(var members)? = result.report else { return .null }
        members.insert(("file", .string(result.file)), at: 0)
        if context.hasBaseline, let index = members.firstIndex(where: { $0.0 == "findings" }) {
            members[index].1 = .array(result.findings.enumerated().map { offset, finding in
                guard case .object(var fields) = finding else { return finding }
                fields.append(("baselineState", .string(result.baselineState(offset) ?? "new")))
                return .object(fields)
            })
            members.append(("absent", .array(result.absent)))
        }
        return .object(members)
    }

    static func jsonl(_ results: [SnapshotResult], context: FormatContext) -> String {
        var out = ""
        for result in results {
            let snapshot = result.report?["snapshot"]
            for (index, finding) in result.findings.enumerated() {
                guard case .object(let fields) = finding else { continue }
                var line: [(String, JSON)] = [
                    ("file", .string(result.file)), ("app", snapshot?["app"] ?? .null), ("build", snapshot?["build"] ?? .null),
                    ("screen", snapshot?["screen"] ?? .null),
                ] + fields
                if let state = result.baselineState(index) { line.append(("baselineState", .string(state))) }
                out += JSON.object(line).rendered() + "\n"
            }
        }
        return out
    }
}
