import AuditCore
import AuditTransport
import Foundation

/// `auditd`'s command line. Every option has a default from docs/DEPLOYMENT.md or the environment.
package struct DaemonOptions: Sendable {
    package var socket: String
    package var socketGroup: String?
    package var socketMode: UInt32 = 0o660
    package var journal: String
    package var journalMaxBytes = 256 << 20
    package var journalKeep = 5
    package var ruleDirectories: [String]
    package var server = Server.Configuration()
    package var allowUIDs: [UInt32] = []
    package var allowGIDs: [UInt32] = []
    package var logLevel: LogLevel = .info

    /// One option of the command line: its name, the placeholder of its value, the help
    /// lines `--help` prints, and what it does to the options. The usage text, the names
    /// "did you mean" searches and docs/CLI.md's table are all made from ``spec``.
    struct Option: Sendable {
        var name: String
        var valueName: String
        var help: [String]
        var apply: @Sendable (inout Parsing, String) throws(Failure) -> Void
    }

    /// What parsing collects besides the options themselves.
    struct Parsing {
        var options = DaemonOptions(socket: "", journal: "", ruleDirectories: [])
        var explicitSocket: String?
        var explicitJournal: String?
        var rules: [String] = []
    }

    /// A day: longer timeouts are a typo, and seconds must stay convertible to nanoseconds.
    static let day = 86_400.0

    static func number(_ name: String, _ text: String, minimum: Double = 0, maximum: Double) throws(Failure) -> Double {
        guard let parsed = Double(text), parsed.isFinite, parsed >= minimum, parsed <= maximum else {
            throw Failure(description: "option \(name) needs a number from \(minimum.formattedForReport) to \(maximum.formattedForReport), not '\(text)'")
        }
        return parsed
    }

    static func integer(_ name: String, _ text: String, minimum: Int = 0, maximum: Int = 1 << 40) throws(Failure) -> Int {
        guard let parsed = Int(text), parsed >= minimum, parsed <= maximum else {
            throw Failure(description: "option \(name) needs a whole number from \(minimum) to \(maximum), not '\(text)'")
        }
        return parsed
    }

    static func identity(_ name: String, _ text: String) throws(Failure) -> UInt32 {
        guard let parsed = UInt32(text) else {
            throw Failure(description: "option \(name) needs a numeric id from 0 to \(UInt32.max), not '\(text)'")
        }
        return parsed
    }

    /// Every option, in the order `--help` lists them.
    static let spec: [Option] = [
        Option(
            name: "--socket", valueName: "PATH",
            help: ["listening socket (default: $AUDITD_SOCKET, /run/a11y-auditd/auditd.sock as root,", "$XDG_RUNTIME_DIR/auditd.sock, /tmp/auditd-$UID.sock)"]
        ) { state, value throws(Failure) in state.explicitSocket = value },
        Option(name: "--socket-group", valueName: "GROUP", help: ["give the socket to this group (name or gid); its members may connect"]) {
            state, value throws(Failure) in state.options.socketGroup = value
        },
        Option(name: "--socket-mode", valueName: "MODE", help: ["socket permissions, octal (default 0660)"]) { state, value throws(Failure) in
            guard let mode = UInt32(value, radix: 8), mode <= 0o777 else { throw Failure(description: "--socket-mode needs an octal mode such as 0660") }
            state.options.socketMode = mode
        },
        Option(
            name: "--journal", valueName: "PATH",
            help: ["findings journal (default: /var/lib/a11y-auditd/findings.jsonl as root,", "$XDG_STATE_HOME/auditd/findings.jsonl)"]
        ) { state, value throws(Failure) in state.explicitJournal = value },
        Option(name: "--journal-max-bytes", valueName: "N", help: ["rotate the journal past N bytes (default 268435456)"]) { state, value throws(Failure) in
            state.options.journalMaxBytes = try integer("--journal-max-bytes", value, minimum: 1024)
        },
        Option(name: "--journal-keep", valueName: "N", help: ["rotated files to keep, findings.jsonl.1…N (default 5)"]) { state, value throws(Failure) in
            state.options.journalKeep = try integer("--journal-keep", value, minimum: 1, maximum: 1000)
        },
        Option(
            name: "--trend-index", valueName: "PATH",
            help: ["the trend index (default: the journal's path + .index.sqlite;", "none: no index, no trends)"]
        ) { state, value throws(Failure) in
            guard !value.isEmpty else { throw Failure(description: "--trend-index needs a path, or none") }
            state.options.server.trendIndex = value
        },
        Option(
            name: "--journal-commit-delay-us", valueName: "N",
            help: ["while other audits are running, wait up to N µs before a journal", "sync so their records share it (default 700; 0 syncs at once)"]
        ) { state, value throws(Failure) in
            state.options.server.journalCommitDelayMicroseconds = try integer("--journal-commit-delay-us", value, minimum: 0, maximum: 100_000)
        },
        Option(
            name: "--spill-findings-after", valueName: "N",
            help: ["an audit's written findings past N bytes wait in a scratch file in the", "journal's directory while its snapshot is held (default 8388608; 0 never)"]
        ) { state, value throws(Failure) in
            state.options.server.spillFindingsAfterBytes = try integer("--spill-findings-after", value, minimum: 0, maximum: 1 << 40)
        },
        Option(
            name: "--rules", valueName: "DIR",
            help: ["rule-set directory, repeatable (default: $AUDITD_RULES, /etc/a11y-auditd/rules,", "/usr/share/a11y-auditd/rules)"]
        ) { state, value throws(Failure) in state.rules.append(value) },
        Option(name: "--max-snapshot-bytes", valueName: "N", help: ["largest request body (default 33554432)"]) { state, value throws(Failure) in
            state.options.server.limits.bodyBytes = try integer("--max-snapshot-bytes", value, minimum: 1)
        },
        Option(name: "--max-connections", valueName: "N", help: ["open connections at most; more get 503 (default 256)"]) { state, value throws(Failure) in
            state.options.server.maxConnections = try integer("--max-connections", value, minimum: 1, maximum: 100_000)
        },
        Option(name: "--workers", valueName: "N", help: ["audits run at once (default: the number of cores)"]) { state, value throws(Failure) in
            state.options.server.workers = try integer("--workers", value, minimum: 1, maximum: 1024)
        },
        Option(name: "--queue-depth", valueName: "N", help: ["audits waiting at most; more get 503 (default 64)"]) { state, value throws(Failure) in
            state.options.server.queueLimit = try integer("--queue-depth", value, minimum: 0, maximum: 100_000)
        },
        Option(name: "--read-timeout", valueName: "SECONDS", help: ["time for a request to arrive once started; then 408 (default 10)"]) {
            state, value throws(Failure) in state.options.server.readTimeout = try number("--read-timeout", value, minimum: 0.01, maximum: day)
        },
        Option(name: "--idle-timeout", valueName: "SECONDS", help: ["close idle keep-alive connections after this (default 60)"]) {
            state, value throws(Failure) in state.options.server.idleTimeout = try number("--idle-timeout", value, minimum: 0.01, maximum: day)
        },
        Option(name: "--drain-timeout", valueName: "SECONDS", help: ["on SIGTERM, wait this long for audits in flight (default 30)"]) {
            state, value throws(Failure) in state.options.server.drainTimeout = try number("--drain-timeout", value, minimum: 0, maximum: day)
        },
        Option(name: "--write-timeout", valueName: "SECONDS", help: ["close a client that leaves its answers unread this long (default 30)"]) {
            state, value throws(Failure) in state.options.server.writeTimeout = try number("--write-timeout", value, minimum: 0.01, maximum: day)
        },
        Option(name: "--audit-budget", valueName: "SECONDS", help: ["time one audit may take; rules left are reported incomplete (default 10)"]) {
            state, value throws(Failure) in state.options.server.auditBudget = try number("--audit-budget", value, minimum: 0.01, maximum: day)
        },
        Option(name: "--ocr-budget", valueName: "SECONDS", help: ["time OCR may take in one audit that asks for it, within the audit's budget (default 5)"]) {
            state, value throws(Failure) in state.options.server.ocrBudget = try number("--ocr-budget", value, minimum: 0.01, maximum: day)
        },
        Option(
            name: "--ocr-memory-limit", valueName: "N",
            help: ["bytes of data the OCR worker process may hold, reserved from --memory-limit while it reads", "(default 536870912)"]
        ) { state, value throws(Failure) in state.options.server.ocrMemoryLimit = try integer("--ocr-memory-limit", value, minimum: 64 << 20) },
        Option(name: "--max-unsent-bytes", valueName: "N", help: ["stop reading a connection while N bytes of its answers are unread (default 4194304)"]) {
            state, value throws(Failure) in state.options.server.maxUnsentBytes = try integer("--max-unsent-bytes", value, minimum: 4096)
        },
        Option(name: "--follow-lag-bytes", valueName: "N", help: ["end a follow stream that falls N bytes behind (default 8388608)"]) {
            state, value throws(Failure) in state.options.server.followLagBytes = try integer("--follow-lag-bytes", value, minimum: 4096)
        },
        Option(
            name: "--memory-limit", valueName: "N",
            help: ["bytes of request bodies, decoded screenshots and unsent answers held at once;", "past it requests get 503 memory-exhausted (default 1073741824)"]
        ) { state, value throws(Failure) in state.options.server.memoryLimit = try integer("--memory-limit", value, minimum: 1 << 20) },
        Option(name: "--allow-uid", valueName: "UID", help: ["let this user connect (repeatable; root and the daemon's user always may)"]) {
            state, value throws(Failure) in state.options.allowUIDs.append(try identity("--allow-uid", value))
        },
        Option(name: "--allow-gid", valueName: "GID", help: ["let this group connect (repeatable; the socket's group always may)"]) {
            state, value throws(Failure) in state.options.allowGIDs.append(try identity("--allow-gid", value))
        },
        Option(name: "--android-density", valueName: "DPR", help: ["pixels per dp for Android dumps, 0.1 to 16 (default: estimated per snapshot)"]) {
            state, value throws(Failure) in
            state.options.server.androidDensity = try number(
                "--android-density", value, minimum: AndroidDensity.acceptedRange.lowerBound, maximum: AndroidDensity.acceptedRange.upperBound)
        },
        Option(name: "--log-level", valueName: "LEVEL", help: ["error, warning, info or debug (default info)"]) { state, value throws(Failure) in
            guard let level = LogLevel(rawValue: value) else { throw Failure(description: "--log-level needs error, warning, info or debug") }
            state.options.logLevel = level
        },
    ]

    /// `--help`, made from ``spec``.
    package static var usage: String {
        var lines = [
            "USAGE: auditd [options]", "", "Accessibility audit daemon: HTTP/1.1 over a Unix socket (see auditctl, and docs/API.md).", "",
            "OPTIONS:",
        ]
        for option in spec {
            let left = "  \(option.name) \(option.valueName)"
            for (offset, help) in option.help.enumerated() {
                let head = offset == 0 ? left : ""
                lines.append(head + String(repeating: " ", count: max(1, 30 - head.count)) + help)
            }
        }
        lines += [
            "  --version                   print the version", "  -h, --help                  print this help", "",
            "SIGNALS: SIGTERM/SIGINT drain and exit 0; SIGHUP reloads rule sets (a broken file keeps the old ones).", "",
        ]
        return lines.joined(separator: "\n")
    }

    /// The options as a markdown table, for docs/CLI.md (`auditd --help-markdown`).
    package static var markdown: String {
        var out = "<!-- BEGIN GENERATED by `auditd --help-markdown`; do not edit -->\n\n| option | |\n| --- | --- |\n"
        for option in spec {
            out += "| `\(option.name) \(option.valueName)` | \(option.help.joined(separator: " ").replacingAll("|", with: "\\|")) |\n"
        }
        return out + "\n<!-- END GENERATED -->\n"
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package enum Parsed {
        case run(DaemonOptions)
        case help
        /// The options' table for docs/CLI.md.
        case helpMarkdown
        /// The routes' table for docs/API.md.
        case helpAPI
        case version
    }

    package static func parse(
        _ arguments: [String], environment: [String: String], uid: UInt32,
        executable: String
    ) throws(Failure) -> Parsed {
        var state = Parsing()
        state.options.server.workers = ProcessInfo.processInfo.activeProcessorCount
        var index = 0
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inline = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--version" { return .version }
            if argument == "--help-markdown" { return .helpMarkdown }
            if argument == "--help-api" { return .helpAPI }
            guard let option = spec.first(where: { $0.name == argument }) else {
                var message = "unknown option '\(argument)'"
                let known = spec.map(\.name) + ["--version", "--help"]
                if let close = EditDistance.closest(to: argument, among: known, limit: 3) { message += "; did you mean '\(close)'?" }
                throw Failure(description: message + " (see auditd --help)")
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else { throw Failure(description: "option \(argument) needs a value") }
                value = arguments[index]
                index += 1
            }
            try option.apply(&state, value)
        }
        var options = state.options
        let (explicitSocket, explicitJournal, rules) = (state.explicitSocket, state.explicitJournal, state.rules)
        guard options.server.memoryLimit >= options.server.limits.bodyBytes else {
            throw Failure(
                description:
                    "--memory-limit (\(options.server.memoryLimit)) must be at least --max-snapshot-bytes (\(options.server.limits.bodyBytes)): the largest snapshot could never be received"
            )
        }
        options.socket = DefaultLocations.socket(explicit: explicitSocket, environment: environment, uid: uid)
        options.journal = DefaultLocations.journal(explicit: explicitJournal, environment: environment, uid: uid)
        let sourceRules = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("../../../Rules").standardized.path
        options.ruleDirectories = DefaultLocations.ruleDirectories(
            explicit: rules, environment: environment,
            exists: { FileManager.default.fileExists(atPath: $0) }, fallback: sourceRules)
        return .run(options)
    }
}
