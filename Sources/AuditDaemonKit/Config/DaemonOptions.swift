import AuditCore
import Foundation

/// `auditd`'s command line. Every option has a default from docs/DEPLOYMENT.md or the environment.
public struct DaemonOptions: Sendable {
    public var socket: String
    public var socketGroup: String?
    public var socketMode: UInt32 = 0o660
    public var journal: String
    public var journalMaxBytes = 256 << 20
    public var journalKeep = 5
    public var ruleDirectories: [String]
    public var server = Server.Configuration()
    public var allowUIDs: [UInt32] = []
    public var allowGIDs: [UInt32] = []
    public var logLevel: LogLevel = .info

    public static let usage = """
        USAGE: auditd [options]

        Accessibility audit daemon: HTTP/1.1 over a Unix socket (see auditctl, and docs/API.md).

        OPTIONS:
          --socket PATH               listening socket (default: $AUDITD_SOCKET, /run/a11y-auditd/auditd.sock as root,
                                      $XDG_RUNTIME_DIR/auditd.sock, /tmp/auditd-$UID.sock)
          --socket-group GROUP        give the socket to this group (name or gid); its members may connect
          --socket-mode MODE          socket permissions, octal (default 0660)
          --journal PATH              findings journal (default: /var/lib/a11y-auditd/findings.jsonl as root,
                                      $XDG_STATE_HOME/auditd/findings.jsonl)
          --journal-max-bytes N       rotate the journal past N bytes (default 268435456)
          --journal-keep N            rotated files to keep, findings.jsonl.1…N (default 5)
          --journal-commit-delay-us N while other audits are running, wait up to N µs before a journal
                                      sync so their records share it (default 700; 0 syncs at once)
          --rules DIR                 rule-set directory, repeatable (default: $AUDITD_RULES, /etc/a11y-auditd/rules,
                                      /usr/share/a11y-auditd/rules)
          --max-snapshot-bytes N      largest request body (default 33554432)
          --max-connections N         open connections at most; more get 503 (default 256)
          --workers N                 audits run at once (default: the number of cores)
          --queue-depth N             audits waiting at most; more get 503 (default 64)
          --read-timeout SECONDS      time for a request to arrive once started; then 408 (default 10)
          --idle-timeout SECONDS      close idle keep-alive connections after this (default 60)
          --drain-timeout SECONDS     on SIGTERM, wait this long for audits in flight (default 30)
          --write-timeout SECONDS     close a client that leaves its answers unread this long (default 30)
          --audit-budget SECONDS      time one audit may take; rules left are reported incomplete (default 10)
          --max-unsent-bytes N        stop reading a connection while N bytes of its answers are unread (default 4194304)
          --follow-lag-bytes N        end a follow stream that falls N bytes behind (default 8388608)
          --memory-limit N            bytes of request bodies, decoded screenshots and unsent answers held at once;
                                      past it requests get 503 memory-exhausted (default 1073741824)
          --allow-uid UID             let this user connect (repeatable; root and the daemon's user always may)
          --allow-gid GID             let this group connect (repeatable; the socket's group always may)
          --android-density DPR       pixels per dp for Android dumps, 0.1 to 16 (default: estimated per snapshot)
          --log-level LEVEL           error, warning, info or debug (default info)
          --version                   print the version
          -h, --help                  print this help

        SIGNALS: SIGTERM/SIGINT drain and exit 0; SIGHUP reloads rule sets (a broken file keeps the old ones).

        """

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public enum Parsed {
        case run(DaemonOptions)
        case help
        case version
    }

    public static func parse(
        _ arguments: [String], environment: [String: String], uid: UInt32,
        executable: String
    ) throws(Failure) -> Parsed {
        var explicitSocket: String?
        var explicitJournal: String?
        var rules: [String] = []
        var options = DaemonOptions(socket: "", journal: "", ruleDirectories: [])
        options.server.workers = ProcessInfo.processInfo.activeProcessorCount
        var index = 0
        func value(_ name: String) throws(Failure) -> String {
            guard index < arguments.count else { throw Failure(description: "option \(name) needs a value") }
            defer { index += 1 }
            return arguments[index]
        }
        func number(_ name: String, _ text: String, minimum: Double = 0, maximum: Double) throws(Failure) -> Double {
            guard let parsed = Double(text), parsed.isFinite, parsed >= minimum, parsed <= maximum else {
                throw Failure(description: "option \(name) needs a number from \(minimum.formattedForReport) to \(maximum.formattedForReport), not '\(text)'")
            }
            return parsed
        }
        func integer(_ name: String, _ text: String, minimum: Int = 0, maximum: Int = 1 << 40) throws(Failure) -> Int {
            guard let parsed = Int(text), parsed >= minimum, parsed <= maximum else {
                throw Failure(description: "option \(name) needs a whole number from \(minimum) to \(maximum), not '\(text)'")
            }
            return parsed
        }
        func identity(_ name: String, _ text: String) throws(Failure) -> UInt32 {
            guard let parsed = UInt32(text) else {
                throw Failure(description: "option \(name) needs a numeric id from 0 to \(UInt32.max), not '\(text)'")
            }
            return parsed
        }
        /// A day: longer timeouts are a typo, and seconds must stay convertible to nanoseconds.
        let day = 86_400.0
        let known = [
            "--socket", "--socket-group", "--socket-mode", "--journal", "--journal-max-bytes", "--journal-keep",
            "--journal-commit-delay-us",
            "--rules", "--max-snapshot-bytes", "--max-connections", "--workers", "--queue-depth", "--read-timeout",
            "--idle-timeout", "--drain-timeout", "--write-timeout", "--audit-budget", "--max-unsent-bytes", "--follow-lag-bytes", "--memory-limit", "--allow-uid", "--allow-gid",
            "--android-density", "--log-level",
            "--version", "--help",
        ]
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inline = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func next() throws(Failure) -> String {
                if let inline { return inline }
                return try value(argument)
            }
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--socket": explicitSocket = try next()
            case "--socket-group": options.socketGroup = try next()
            case "--socket-mode":
                let text = try next()
                guard let mode = UInt32(text, radix: 8), mode <= 0o777 else { throw Failure(description: "--socket-mode needs an octal mode such as 0660") }
                options.socketMode = mode
            case "--journal": explicitJournal = try next()
            case "--journal-max-bytes": options.journalMaxBytes = try integer(argument, try next(), minimum: 1024)
            case "--journal-keep": options.journalKeep = try integer(argument, try next(), minimum: 1, maximum: 1000)
            case "--journal-commit-delay-us":
                options.server.journalCommitDelayMicroseconds = try integer(argument, try next(), minimum: 0)
                guard options.server.journalCommitDelayMicroseconds <= 100_000 else {
                    throw Failure(description: "--journal-commit-delay-us takes at most 100000 (0.1 s)")
                }
            case "--rules": rules.append(try next())
            case "--max-snapshot-bytes": options.server.limits.bodyBytes = try integer(argument, try next(), minimum: 1)
            case "--max-connections": options.server.maxConnections = try integer(argument, try next(), minimum: 1, maximum: 100_000)
            case "--workers": options.server.workers = try integer(argument, try next(), minimum: 1, maximum: 1024)
            case "--queue-depth": options.server.queueLimit = try integer(argument, try next(), minimum: 0, maximum: 100_000)
            case "--read-timeout": options.server.readTimeout = try number(argument, try next(), minimum: 0.01, maximum: day)
            case "--idle-timeout": options.server.idleTimeout = try number(argument, try next(), minimum: 0.01, maximum: day)
            case "--write-timeout": options.server.writeTimeout = try number(argument, try next(), minimum: 0.01, maximum: day)
            case "--audit-budget": options.server.auditBudget = try number(argument, try next(), minimum: 0.01, maximum: day)
            case "--max-unsent-bytes": options.server.maxUnsentBytes = try integer(argument, try next(), minimum: 4096)
            case "--follow-lag-bytes": options.server.followLagBytes = try integer(argument, try next(), minimum: 4096)
            case "--memory-limit": options.server.memoryLimit = try integer(argument, try next(), minimum: 1 << 20)
            case "--drain-timeout": options.server.drainTimeout = try number(argument, try next(), minimum: 0, maximum: day)
            case "--allow-uid": options.allowUIDs.append(try identity(argument, try next()))
            case "--allow-gid": options.allowGIDs.append(try identity(argument, try next()))
            case "--android-density":
                options.server.androidDensity = try number(
                    argument, try next(), minimum: AndroidDensity.acceptedRange.lowerBound,
                    maximum: AndroidDensity.acceptedRange.upperBound)
            case "--log-level":
                let text = try next()
                guard let level = LogLevel(rawValue: text) else { throw Failure(description: "--log-level needs error, warning, info or debug") }
                options.logLevel = level
            default:
                var message = "unknown option '\(argument)'"
                if let close = EditDistance.closest(to: argument, among: known, limit: 3) { message += "; did you mean '\(close)'?" }
                throw Failure(description: message + " (see auditd --help)")
            }
        }
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
