import AuditClient
import AuditCommandLine
import AuditCore
import Foundation

/// `auditctl watch`: follows the findings journal as the daemon writes it; after a daemon
/// restart it reconnects and resumes after the last seq it printed.
enum WatchCommand: Command {
    static let since = Option<UInt64>("--since", valueName: "SEQ", help: "start after this seq (default: now; 0 for everything)")
    static let app = Option<String>("--app", valueName: "APP", help: "only this app")
    static let screen = Option<String>("--screen", valueName: "SCREEN", help: "only this screen")
    static let rule = Option<String>("--rule", valueName: "RULE", help: "only this rule id (globs allowed)")
    static let severity = Option<String>("--severity", valueName: "LEVEL", help: "only at or above this severity", choices: ["error", "warning", "notice"])
    static let format = Option<String>("--format", short: "-f", valueName: "FORMAT", help: "text or jsonl", choices: ["text", "jsonl"])
    static let count = Option<Int>("--count", valueName: "N", help: "stop after N matching records", in: 1...Int.max)

    static let spec = CommandSpec(
        name: "watch",
        abstract: "Follow findings as the daemon journals them.",
        operands: "",
        options: [
            Self.since.spec,
            Self.app.spec,
            Self.screen.spec,
            Self.rule.spec,
            Self.severity.spec,
            Self.format.spec,
            Self.count.spec,
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let socket = DaemonConnection.socketPath(arguments)
        let client = UnixHTTPClient(socketPath: socket, timeout: try DaemonConnection.timeout(arguments))
        var since: UInt64
        if let value = arguments[Self.since] {
            since = value
        } else {
            do {
                let health = try JSONParser.parse(try client.request("GET", "/v1/health").body)
                since = UInt64(health["journal"]?["seq"]?.intValue ?? 0)
            } catch let error as ClientError {
                Console.error("auditctl: " + DaemonConnection.unreachableMessage(error, socket: socket))
                return .usageOrInput
            }
        }
        let rule = arguments[Self.rule].map(Glob.init)
        let minimum = arguments[Self.severity].flatMap(Severity.init)
        let limit = arguments[Self.count]
        let jsonl = arguments[Self.format] == "jsonl"
        var printed = 0
        var pending: [UInt8] = []
        var failures = 0
        while true {
            do {
                _ = try client.stream("/v1/findings?since=\(since)&follow=1") { chunk in
                    failures = 0
                    pending += chunk
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = Array(pending[..<newline])
                        pending.removeFirst(newline + 1)
                        guard let record = try? JSONParser.parse(line) else { continue }
                        if let seq = record["seq"]?.intValue { since = UInt64(seq) }
                        guard record["type"]?.stringValue == "finding" else { continue }
                        if let app = arguments[Self.app], record["app"]?.stringValue != app { continue }
                        if let screen = arguments[Self.screen], record["screen"]?.stringValue != screen { continue }
                        // A rule's id now or before its rename (records journaled before it).
                        if let rule, !BuiltInRules.names(of: record["rule"]?.stringValue ?? "").contains(where: rule.matches) { continue }
                        if let minimum, (record["severity"]?.stringValue.flatMap(Severity.init) ?? .notice) < minimum { continue }
                        if jsonl {
                            Console.out(String(decoding: line, as: UTF8.self) + "\n")
                        } else {
                            // Every field is the daemon's or a snapshot's: escaped, so none can forge a line.
                            func e(_ text: String?) -> String { TerminalText.escape(text ?? "") }
                            let where_ = [record["app"]?.stringValue, record["screen"]?.stringValue].compactMap { $0 }.map(e).joined(separator: "/")
                            Console.out(
                                "\(record["seq"]?.intValue ?? 0) \(where_) \(e(record["severity"]?.stringValue)): [\(e(record["rule"]?.stringValue))] \(e(record["message"]?.stringValue))"
                                    + (record["element"]?.stringValue.map { " (\(e($0)))" } ?? "") + "\n")
                        }
                        Console.flush()
                        printed += 1
                        if let limit, printed >= limit { return false }
                    }
                    return true
                }
                if let limit, printed >= limit { return .clean }
            } catch {
                failures += 1
                if failures == 1 { Console.error("auditctl: lost the daemon (\(error.description)); reconnecting, resuming after seq \(since)") }
            }
            // Back off while the daemon restarts.
            usleep(UInt32(min(2_000_000, 100_000 * (1 << min(failures, 5)))))
        }
    }
}
