import AuditCore
import AuditTransport

/// `GET /v1/health`: liveness, version, and what the daemon is working with.
enum HealthHandler {
    static func handle(_ server: Server, _ ticket: Ticket, _ request: HTTPRequest) {
        let library = server.ruleSets.library
        ticket.answer(
            .json(
                200,
                .object([
                    ("status", .string(server.isDraining ? "draining" : "ok")),
                    ("version", .string(AuditCoreVersion.string)),
                    ("uptime_s", .number((server.uptime * 1000).rounded() / 1000)),
                    ("rulesets", .array(library.names.map(JSON.string))),
                    ("journal", .object([("path", .string(server.journal.path)), ("seq", .int(Int(server.journal.lastSeq)))])),
                    ("workers", .int(server.pool.workers)),
                    ("in_flight", .int(server.pool.running)),
                    ("queued", .int(server.pool.queued)),
                ])))
        server.metrics.requestFinished(route: "health", status: 200)
    }
}
