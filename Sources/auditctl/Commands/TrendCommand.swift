import AuditClient
import AuditCore
import AuditFormats

/// `auditctl trend --app A [--screen S] [--build B]`: the app's builds, each screen's
/// findings compared with its last earlier audit — new, fixed, persistent, regressed —
/// from the daemon's trend index (`GET /v1/trends`; docs/trends.md).
enum TrendCommand: Command {
    static let spec = CommandSpec(
        name: "trend",
        abstract: "Show what is new, fixed, persistent and regressed in each build of an app.",
        operands: "", minOperands: 0, maxOperands: 0,
        options: [
            .init(name: "--app", valueName: "APP", help: "the app (as its audits named it)"),
            .init(name: "--screen", valueName: "SCREEN", help: "one screen only"),
            .init(name: "--build", valueName: "BUILD", help: "one build, with its findings by class"),
            .init(name: "--format", short: "-f", valueName: "FORMAT", help: "text (a table, the default) or json", choices: ["text", "json"]),
        ],
        discussion:
            "Builds are listed in the order they were first audited. A screen's first audit counts as first, not new; a screen audited in the previous build and not in this one is listed as not audited, never as fixed. Exit status 0, or 2 when the app or build is unknown or the daemon cannot be reached."
    )

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        guard let app = arguments.value("--app"), !app.isEmpty else {
            throw InputError(description: "auditctl trend: give --app APP (trends are per app)")
        }
        var query = ["app=" + InputFiles.encoded(app)]
        if let screen = arguments.value("--screen") { query.append("screen=" + InputFiles.encoded(screen)) }
        if let build = arguments.value("--build") { query.append("build=" + InputFiles.encoded(build)) }
        let socket = DaemonConnection.socketPath(arguments)
        let client = UnixHTTPClient(socketPath: socket, timeout: try DaemonConnection.timeout(arguments))
        let fetched = Result { () throws(ClientError) -> ClientResponse in try client.request("GET", "/v1/trends?" + query.joined(separator: "&")) }
        let response: ClientResponse
        switch fetched {
        case .success(let answer): response = answer
        case .failure(let error):
            Console.error("auditctl: " + (error.unreachable ? DaemonConnection.unreachableMessage(error, socket: socket) : error.description))
            return .usageOrInput
        }
        guard response.status == 200, let answer = try? JSONParser.parse(response.body) else {
            let error = ErrorAnswer(status: response.status, body: response.body)
            Console.error("auditctl: " + TerminalText.escape(error.message) + (error.hint.map { " (" + TerminalText.escape($0) + ")" } ?? ""))
            return .usageOrInput
        }
        if arguments.value("--format") == "json" {
            Console.out(answer.rendered(pretty: true) + "\n")
            return .clean
        }
        Console.out(text(answer))
        return .clean
    }

    /// The table: one row per build, then the findings of a chosen build by class.
    static func text(_ answer: JSON) -> String {
        let builds = answer["builds"]?.arrayValue ?? []
        var out = "\(TerminalText.escape(answer["app"]?.stringValue ?? ""))"
        if let screen = answer["screen"]?.stringValue { out += " · \(TerminalText.escape(screen))" }
        out += " — \(builds.count) build\(builds.count == 1 ? "" : "s")\n"
        let columns = ["build", "screens", "new", "regressed", "fixed", "persistent", "first"]
        var rows: [[String]] = [columns + ["not audited", "transcript changed"]]
        for build in builds {
            var row = [TerminalText.escape(build["build"]?.stringValue ?? "")]
            row += columns.dropFirst().map { String(build[$0]?.intValue ?? 0) }
            row.append((build["not-audited"]?.arrayValue ?? []).compactMap(\.stringValue).map(TerminalText.escape).joined(separator: ", "))
            row.append((build["transcript-changed"]?.arrayValue ?? []).compactMap(\.stringValue).map(TerminalText.escape).joined(separator: ", "))
            rows.append(row)
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                // Names left-aligned, counts right-aligned.
                line += column == 0 || column >= columns.count ? cell + pad : pad + cell
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        for build in builds {
            for change in build["transcript-diff"]?.arrayValue ?? [] {
                out += "\nwhat the screen reader says on \(TerminalText.escape(change["screen"]?.stringValue ?? "")) changed:\n"
                for stop in change["removed"]?.arrayValue ?? [] { out += "  - \(TerminalText.escape(stop.stringValue ?? ""))\n" }
                for stop in change["added"]?.arrayValue ?? [] { out += "  + \(TerminalText.escape(stop.stringValue ?? ""))\n" }
            }
            guard let findings = build["findings"]?.arrayValue else { continue }
            for kind in ["new", "regressed", "fixed", "persistent", "first"] {
                let chosen = findings.filter { $0["class"]?.stringValue == kind }
                guard !chosen.isEmpty else { continue }
                out += "\n\(kind) (\(chosen.count)):\n"
                for finding in chosen {
                    let parts = [
                        finding["screen"]?.stringValue ?? "", finding["severity"]?.stringValue ?? "",
                        "[\(finding["rule"]?.stringValue ?? "")]", finding["message"]?.stringValue ?? "",
                    ]
                    out += "  " + TerminalText.escape(parts.joined(separator: " ")) + "\n"
                }
            }
        }
        return out
    }
}
