import AuditClient
import AuditCommandLine
import AuditCore

/// `auditctl status`: is the daemon up, and the figures that matter.
enum StatusCommand: Command {
    static let format = Option<String>("--format", short: "-f", valueName: "FORMAT", help: "text or json", choices: ["text", "json"])

    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the daemon's health and key metrics.",
        operands: "",
        options: [Self.format.spec])

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let socket = DaemonConnection.socketPath(arguments)
        let timeout = try DaemonConnection.timeout(arguments)
        let client = UnixHTTPClient(socketPath: socket, timeout: timeout)
        let health: JSON
        let metrics: String
        do {
            let response = try client.request("GET", "/v1/health")
            guard response.status == 200, let json = try? JSONParser.parse(response.body) else {
                throw InputError(description: "auditd answered \(response.status) to /v1/health")
            }
            health = json
            metrics = String(decoding: try client.request("GET", "/metrics").body, as: UTF8.self)
        } catch let error as ClientError {
            Console.error("auditctl: " + (error.unreachable ? DaemonConnection.unreachableMessage(error, socket: socket) : error.description))
            return .usageOrInput
        }
        func metric(_ name: String) -> Double {
            metrics.split(separator: "\n").filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
                .compactMap { Double($0.split(separator: " ").last ?? "") }.reduce(0, +)
        }
        if arguments[Self.format] == "json" {
            Console.out(
                JSON.object([
                    ("socket", .string(socket)), ("health", health),
                    ("audits", .number(metric("auditd_audits_total"))),
                    ("findings", .number(metric("auditd_findings_total"))),
                    ("open_connections", .number(metric("auditd_open_connections"))),
                    ("queue_depth", .number(metric("auditd_queue_depth"))),
                ]).rendered(pretty: true) + "\n")
            return .clean
        }
        let count = metric("auditd_audit_duration_seconds_count")
        let mean = count > 0 ? metric("auditd_audit_duration_seconds_sum") / count * 1000 : 0
        Console.out(
            """
            auditd \(health["version"]?.stringValue ?? "?") — \(health["status"]?.stringValue ?? "?") on \(socket)
              uptime        \(health["uptime_s"]?.doubleValue.map { $0.formattedForReport } ?? "?") s
              rule sets     \((health["rulesets"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "))
              journal       \(health["journal"]?["path"]?.stringValue ?? "?") (seq \(health["journal"]?["seq"]?.intValue ?? 0))
              audits        \(Int(metric("auditd_audits_total"))) (mean \(mean.formattedForReport) ms)
              findings      \(Int(metric("auditd_findings_total")))
              workers       \(health["workers"]?.intValue ?? 0), \(health["in_flight"]?.intValue ?? 0) busy, \(health["queued"]?.intValue ?? 0) queued
              connections   \(Int(metric("auditd_open_connections"))) open

            """)
        return .clean
    }
}
