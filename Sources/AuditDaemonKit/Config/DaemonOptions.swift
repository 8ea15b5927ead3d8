import AuditCommandLine
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

    /// One option of the command line, declared through its typed handle (shared with
    /// `auditctl`: ``Option``), and what its value does to the options. The usage text, the
    /// names "did you mean" searches and docs/CLI.md's table are all made from ``spec``.
    struct Setting: Sendable {
        var option: OptionSpec
        var apply: @Sendable (inout Parsing, ParsedArguments) throws(Failure) -> Void

        /// An option whose every value, in order, is given to `apply` as a `Value`: any
        /// option may be given again, the later value winning (a unit's drop-in adds to its
        /// command line), and `--rules` and `--allow-*` add up.
        static func value<Value: OptionValue>(
            _ handle: Option<Value>, _ apply: @escaping @Sendable (inout Parsing, Value) throws(Failure) -> Void
        ) -> Setting {
            var option = handle.spec
            option.repeatable = true
            return Setting(option: option) { state, parsed throws(Failure) in
                for value in parsed.all(handle) { try apply(&state, value) }
            }
        }
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

    /// Seconds from 0.01 to a day.
    static func seconds(_ name: String, _ help: String..., minimum: Double = 0.01) -> Option<Double> {
        Option(name, valueName: "SECONDS", help: help.joined(separator: " "), in: minimum...day)
    }

    /// Every option, in the order `--help` lists them.
    static let spec: [Setting] = [
        .value(
            Option<String>(
                "--socket", valueName: "PATH",
                help: "listening socket (default: $AUDITD_SOCKET, /run/a11y-auditd/auditd.sock as root,", "$XDG_RUNTIME_DIR/auditd.sock, /tmp/auditd-$UID.sock)")
        ) { state, value throws(Failure) in state.explicitSocket = value },
        .value(Option<String>("--socket-group", valueName: "GROUP", help: "give the socket to this group (name or gid); its members may connect")) {
            state, value throws(Failure) in state.options.socketGroup = value
        },
        .value(
            Option<String>(
                "--socket-mode", valueName: "MODE", help: "socket permissions, octal (default 0660)", expected: "an octal mode such as 0660",
                accepts: { UInt32($0, radix: 8).map { $0 <= 0o777 } ?? false })
        ) { state, value throws(Failure) in state.options.socketMode = UInt32(value, radix: 8) ?? 0o660 },
        .value(
            Option<String>(
                "--journal", valueName: "PATH",
                help: "findings journal (default: /var/lib/a11y-auditd/findings.jsonl as root,", "$XDG_STATE_HOME/auditd/findings.jsonl)")
        ) { state, value throws(Failure) in state.explicitJournal = value },
        .value(Option<Int>("--journal-max-bytes", valueName: "N", help: "rotate the journal past N bytes (default 268435456)", in: 1024...(1 << 40))) {
            state, value throws(Failure) in state.options.journalMaxBytes = value
        },
        .value(Option<Int>("--journal-keep", valueName: "N", help: "rotated files to keep, findings.jsonl.1…N (default 5)", in: 1...1000)) {
            state, value throws(Failure) in state.options.journalKeep = value
        },
        .value(
            Option<String>(
                "--trend-index", valueName: "PATH", help: "the trend index (default: the journal's path + .index.sqlite;", "none: no index, no trends)",
                expected: "a path, or none", accepts: { !$0.isEmpty })
        ) { state, value throws(Failure) in state.options.server.trendIndex = value },
        .value(
            Option<Int>(
                "--journal-commit-delay-us", valueName: "N",
                help: "while other audits are running, wait up to N µs before a journal", "sync so their records share it (default 700; 0 syncs at once)",
                in: 0...100_000)
        ) { state, value throws(Failure) in state.options.server.journalCommitDelayMicroseconds = value },
        .value(
            Option<Int>(
                "--spill-findings-after", valueName: "N",
                help: "an audit's written findings past N bytes wait in a scratch file in the", "journal's directory while its snapshot is held (default 8388608; 0 never)",
                in: 0...(1 << 40))
        ) { state, value throws(Failure) in state.options.server.spillFindingsAfterBytes = value },
        .value(
            Option<String>(
                "--rules", valueName: "DIR", help: "rule-set directory, repeatable (default: $AUDITD_RULES, /etc/a11y-auditd/rules,", "/usr/share/a11y-auditd/rules)",
                repeatable: true)
        ) { state, value throws(Failure) in state.rules.append(value) },
        .value(Option<Int>("--max-snapshot-bytes", valueName: "N", help: "largest request body (default 33554432)", in: 1...(1 << 40))) {
            state, value throws(Failure) in state.options.server.limits.bodyBytes = value
        },
        .value(Option<Int>("--max-connections", valueName: "N", help: "open connections at most; more get 503 (default 256)", in: 1...100_000)) {
            state, value throws(Failure) in state.options.server.maxConnections = value
        },
        .value(Option<Int>("--workers", valueName: "N", help: "audits run at once (default: the number of cores)", in: 1...1024)) {
            state, value throws(Failure) in state.options.server.workers = value
        },
        .value(Option<Int>("--queue-depth", valueName: "N", help: "audits waiting at most; more get 503 (default 64)", in: 0...100_000)) {
            state, value throws(Failure) in state.options.server.queueLimit = value
        },
        .value(seconds("--read-timeout", "time for a request to arrive once started; then 408 (default 10)")) { state, value throws(Failure) in
            state.options.server.readTimeout = value
        },
        .value(seconds("--idle-timeout", "close idle keep-alive connections after this (default 60)")) { state, value throws(Failure) in
            state.options.server.idleTimeout = value
        },
        .value(seconds("--drain-timeout", "on SIGTERM, wait this long for audits in flight (default 30)", minimum: 0)) { state, value throws(Failure) in
            state.options.server.drainTimeout = value
        },
        .value(seconds("--write-timeout", "close a client that leaves its answers unread this long (default 30)")) { state, value throws(Failure) in
            state.options.server.writeTimeout = value
        },
        .value(seconds("--audit-budget", "time one audit may take; rules left are reported incomplete (default 10)")) { state, value throws(Failure) in
            state.options.server.auditBudget = value
        },
        .value(seconds("--ocr-budget", "time OCR may take in one audit that asks for it, within the audit's budget (default 5)")) {
            state, value throws(Failure) in state.options.server.ocrBudget = value
        },
        .value(
            Option<Int>(
                "--ocr-memory-limit", valueName: "N",
                help: "bytes of data the OCR worker process may hold, reserved from --memory-limit while it reads", "(default 536870912)",
                in: (64 << 20)...(1 << 40))
        ) { state, value throws(Failure) in state.options.server.ocrMemoryLimit = value },
        .value(
            Option<Int>(
                "--max-unsent-bytes", valueName: "N", help: "stop reading a connection while N bytes of its answers are unread (default 4194304)",
                in: 4096...(1 << 40))
        ) { state, value throws(Failure) in state.options.server.maxUnsentBytes = value },
        .value(
            Option<Int>("--follow-lag-bytes", valueName: "N", help: "end a follow stream that falls N bytes behind (default 8388608)", in: 4096...(1 << 40))
        ) { state, value throws(Failure) in state.options.server.followLagBytes = value },
        .value(
            Option<Int>(
                "--memory-limit", valueName: "N",
                help: "bytes of request bodies, decoded screenshots and unsent answers held at once;", "past it requests get 503 memory-exhausted (default 1073741824)",
                in: (1 << 20)...(1 << 40))
        ) { state, value throws(Failure) in state.options.server.memoryLimit = value },
        .value(
            Option<UInt32>("--allow-uid", valueName: "UID", help: "let this user connect (repeatable; root and the daemon's user always may)", repeatable: true)
        ) { state, value throws(Failure) in state.options.allowUIDs.append(value) },
        .value(
            Option<UInt32>("--allow-gid", valueName: "GID", help: "let this group connect (repeatable; the socket's group always may)", repeatable: true)
        ) { state, value throws(Failure) in state.options.allowGIDs.append(value) },
        .value(
            Option<Double>(
                "--android-density", valueName: "DPR", help: "pixels per dp for Android dumps, 0.1 to 16 (default: estimated per snapshot)",
                in: AndroidDensity.acceptedRange)
        ) { state, value throws(Failure) in state.options.server.androidDensity = value },
        .value(
            Option<String>(
                "--log-level", valueName: "LEVEL", help: "error, warning, info or debug (default info)", choices: ["error", "warning", "info", "debug"])
        ) { state, value throws(Failure) in state.options.logLevel = LogLevel(rawValue: value) ?? .info },
    ]

    /// The flags that ask for something else than running.
    static let help = Flag("--help", short: "-h", help: "print this help")
    static let version = Flag("--version", help: "print the version")
    static let helpMarkdown = Flag("--help-markdown", help: "the options' table for docs/CLI.md")
    static let helpAPI = Flag("--help-api", help: "the routes' table for docs/API.md")

    /// `--help`, made from ``spec``.
    package static var usage: String {
        var lines = [
            "USAGE: auditd [options]", "", "Accessibility audit daemon: HTTP/1.1 over a Unix socket (see auditctl, and docs/API.md).", "",
            "OPTIONS:",
        ]
        for option in spec.map(\.option) {
            let left = "  \(option.name) \(option.valueName ?? "")"
            for (offset, help) in option.helpLines.enumerated() {
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
        for option in spec.map(\.option) {
            out += "| `\(option.name) \(option.valueName ?? "")` | \(option.help.replacingAll("|", with: "\\|")) |\n"
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
        let parsed: ParsedArguments
        do throws(UsageError) {
            parsed = try ArgumentParser.parse(
                arguments, options: spec.map(\.option) + [help.spec, version.spec, helpMarkdown.spec, helpAPI.spec], program: "auditd", command: "",
                hint: " (see auditd --help)")
        } catch {
            throw Failure(description: error.message)
        }
        if parsed[help] { return .help }
        if parsed[version] { return .version }
        if parsed[helpMarkdown] { return .helpMarkdown }
        if parsed[helpAPI] { return .helpAPI }
        if let extra = parsed.operands.first { throw Failure(description: "unexpected argument '\(extra)' (auditd takes options only; see auditd --help)") }
        for setting in spec { try setting.apply(&state, parsed) }
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
