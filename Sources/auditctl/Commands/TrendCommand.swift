import AuditClient
import AuditCommandLine
import AuditCore
import AuditFormats
import AuditHistory

/// `auditctl trend --app A [--screen S] [--build B|latest]`: the app's builds, each screen's
/// findings compared with its last earlier audit — new, fixed, persistent, regressed, by
/// severity — from the daemon's trend index (`GET /v1/trends`; docs/trends.md);
/// `auditctl trend` alone: every app with its latest build. With `--journal FILE` the answer
/// comes from a journal file alone, indexed in memory by the history library the daemon uses
/// (no daemon needed: a CI job that kept the journal, a copy from a server).
enum TrendCommand: Command {
    static let app = Option<String>("--app", valueName: "APP", help: "the app (as its audits named it); without it, every app and its latest build")
    static let screen = Option<String>("--screen", valueName: "SCREEN", help: "one screen only")
    static let build = Option<String>("--build", valueName: "BUILD", help: "one build (or latest), with its findings by class")
    static let format = Option<String>("--format", short: "-f", valueName: "FORMAT", help: "text (a table, the default) or json", choices: ["text", "json"])
    static let journal = Option<String>("--journal", valueName: "FILE", help: "answer from this journal file (auditd --journal), with no daemon")

    static let spec = CommandSpec(
        name: "trend",
        abstract: "Show what is new, fixed, persistent and regressed in each build of an app.",
        operands: "", minOperands: 0, maxOperands: 0,
        options: [
            Self.app.spec,
            Self.screen.spec,
            Self.build.spec,
            Self.format.spec,
            Self.journal.spec,
        ],
        discussion:
            "Builds are listed in the order they were first audited. A screen's first audit counts as first, not new; a screen audited in the previous build and not in this one is listed as not audited, never as fixed. Exit status 0, or 2 when the app or build is unknown or the daemon cannot be reached."
    )

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        var query: [String] = []
        let app = arguments[Self.app].flatMap { $0.isEmpty ? nil : $0 }
        if let app { query.append("app=" + InputFiles.encoded(app)) }
        if let screen = arguments[Self.screen] { query.append("screen=" + InputFiles.encoded(screen)) }
        if let build = arguments[Self.build] { query.append("build=" + InputFiles.encoded(build)) }
        if app == nil, query.count > 0 {
            throw InputError(description: "auditctl trend: --screen and --build are of one app: give --app APP (auditctl trend alone lists the apps)")
        }
        if let journal = arguments[Self.journal] {
            guard let answer = fromJournal(journal, app: app, screen: arguments[Self.screen], build: arguments[Self.build]) else {
                return .usageOrInput
            }
            return show(answer, app: app, arguments)
        }
        let socket = DaemonConnection.socketPath(arguments)
        let client = UnixHTTPClient(socketPath: socket, timeout: try DaemonConnection.timeout(arguments))
        let target = "/v1/trends" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let fetched = Result { () throws(ClientError) -> ClientResponse in try client.request("GET", target) }
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
        return show(answer, app: app, arguments)
    }

    /// Prints an answer (the daemon's, or one made from a journal) as `--format` asks.
    static func show(_ answer: JSON, app: String?, _ arguments: ParsedArguments) -> ExitStatus {
        if arguments[Self.format] == "json" {
            Console.out(answer.rendered(pretty: true) + "\n")
        } else {
            Console.out(app == nil ? apps(answer) : text(answer))
        }
        return .clean
    }

    /// The daemon's answer to the same question, from `path` alone; `nil` (said on standard
    /// error) when the journal cannot be read or holds no such app or build.
    static func fromJournal(_ path: String, app: String?, screen: String?, build: String?) -> JSON? {
        let writer: TrendIndexWriter
        do throws(HistoryError) {
            writer = try TrendIndexWriter.indexing(journalAt: path)
        } catch {
            Console.error("auditctl: " + TerminalText.escape(error.description))
            return nil
        }
        do throws(SQLiteError) {
            let store = try writer.store()
            guard let app else { return try TrendHistory.apps(store: store) }
            switch try TrendHistory.json(TrendHistory.Query(app: app, screen: screen, build: build), store: store) {
            case .success(let answer): return answer
            case .failure(let problem):
                Console.error("auditctl: \(TerminalText.escape(problem.message)) in \(TerminalText.escape(path)) (\(problem.hint))")
                return nil
            }
        } catch {
            Console.error("auditctl: cannot read the index of \(TerminalText.escape(path)): \(error.description)")
            return nil
        }
    }

    /// The classes a build's row counts, in the order the table gives them.
    static let classes = ["new", "regressed", "fixed", "persistent", "first"]

    /// A class's count with its split by severity: `3 (2E 1W)`.
    static func cell(_ build: JSON, _ kind: String) -> String {
        let count = build[kind]?.intValue ?? 0
        guard count > 0, let bySeverity = build["by-severity"]?.objectValue else { return String(count) }
        let parts = bySeverity.compactMap { severity, classes -> String? in
            let n = classes[kind]?.intValue ?? 0
            return n > 0 ? "\(n)\(severity.first.map { String($0).uppercased() } ?? "?")" : nil
        }
        return parts.isEmpty ? String(count) : "\(count) (\(parts.joined(separator: " ")))"
    }

    /// The findings a build's screens hold: all but the fixed.
    static func present(_ build: JSON) -> Int {
        ["new", "regressed", "persistent", "first"].reduce(0) { $0 + (build[$1]?.intValue ?? 0) }
    }

    /// The date a build was first audited (the journal's RFC 3339 time, to the minute).
    static func date(_ build: JSON) -> String {
        guard let time = build["first_audited"]?.stringValue else { return "" }
        return String(time.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    /// Rows as columns: names left-aligned, counts right-aligned.
    static func table(_ rows: [[String]], leftColumns: Set<Int>) -> String {
        var widths = [Int](repeating: 0, count: rows.first?.count ?? 0)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += "  " }
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                line += leftColumns.contains(column) ? cell + pad : pad + cell
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// `auditctl trend` alone: every app, its latest build and what that build changed.
    static func apps(_ answer: JSON) -> String {
        let apps = answer["apps"]?.arrayValue ?? []
        guard !apps.isEmpty else { return "no app has been audited with a build (audits name it with --build or build=)\n" }
        var rows: [[String]] = [["app", "last build", "first audited", "screens", "findings"] + classes]
        for app in apps {
            rows.append(
                [TerminalText.escape(app["app"]?.stringValue ?? ""), TerminalText.escape(app["build"]?.stringValue ?? ""), date(app)]
                    + [String(app["screens"]?.intValue ?? 0), String(present(app))] + classes.map { cell(app, $0) })
        }
        return "\(apps.count) app\(apps.count == 1 ? "" : "s"), each with its latest build against the builds before it\n"
            + table(rows, leftColumns: [0, 1, 2]) + "auditctl trend --app APP for an app's builds\n"
    }

    /// The table: one row per build, totals, then the findings of a chosen build by class.
    static func text(_ answer: JSON) -> String {
        let builds = answer["builds"]?.arrayValue ?? []
        var out = "\(TerminalText.escape(answer["app"]?.stringValue ?? ""))"
        if let screen = answer["screen"]?.stringValue { out += " · \(TerminalText.escape(screen))" }
        out += " — \(builds.count) build\(builds.count == 1 ? "" : "s")\n"
        var rows: [[String]] = [["build", "first audited", "screens", "findings"] + classes + ["not audited", "transcript changed"]]
        var totals = [String: Int]()
        for build in builds {
            var row = [TerminalText.escape(build["build"]?.stringValue ?? ""), date(build), String(build["screens"]?.intValue ?? 0), String(present(build))]
            row += classes.map { cell(build, $0) }
            for kind in classes { totals[kind, default: 0] += build[kind]?.intValue ?? 0 }
            row.append((build["not-audited"]?.arrayValue ?? []).compactMap(\.stringValue).map(TerminalText.escape).joined(separator: ", "))
            row.append((build["transcript-changed"]?.arrayValue ?? []).compactMap(\.stringValue).map(TerminalText.escape).joined(separator: ", "))
            rows.append(row)
        }
        if builds.count > 1 {
            rows.append(["total", "", "", ""] + classes.map { kind in kind == "persistent" || kind == "first" ? "" : String(totals[kind] ?? 0) } + ["", ""])
        }
        out += table(rows, leftColumns: [0, 1, rows[0].count - 2, rows[0].count - 1])
        for build in builds {
            for change in build["transcript-diff"]?.arrayValue ?? [] {
                out += "\nwhat the screen reader says on \(TerminalText.escape(change["screen"]?.stringValue ?? "")) changed:\n"
                for stop in change["removed"]?.arrayValue ?? [] { out += "  - \(TerminalText.escape(stop.stringValue ?? ""))\n" }
                for stop in change["added"]?.arrayValue ?? [] { out += "  + \(TerminalText.escape(stop.stringValue ?? ""))\n" }
            }
            guard let findings = build["findings"]?.arrayValue else { continue }
            for kind in classes {
                let chosen = findings.filter { $0["class"]?.stringValue == kind }
                guard !chosen.isEmpty else { continue }
                out += "\n\(kind) (\(chosen.count)):\n"
                var lines: [[String]] = []
                for finding in chosen {
                    lines.append([
                        "  " + TerminalText.escape(finding["screen"]?.stringValue ?? ""), finding["severity"]?.stringValue ?? "",
                        TerminalText.escape(finding["rule"]?.stringValue ?? ""), TerminalText.escape(elementName(finding)),
                        TerminalText.escape(finding["message"]?.stringValue ?? ""),
                    ])
                }
                out += table(lines, leftColumns: [0, 1, 2, 3, 4])
            }
        }
        return out
    }

    /// An element as the index knows it: its id, else the last two steps of its path
    /// without their packages (`LinearLayout[3]/ImageView[1]`); the screen itself when
    /// the finding is about it.
    static func elementName(_ finding: JSON) -> String {
        if let id = finding["element"]?.stringValue, !id.isEmpty { return id }
        guard let path = finding["path"]?.stringValue else { return "the screen" }
        let steps = path.split(separator: "/").suffix(2).map { step in
            step.split(separator: ".").last.map(String.init) ?? String(step)
        }
        return steps.joined(separator: "/")
    }
}
