import AuditCore
import AuditTransport

/// `GET /v1/health`: liveness, version, and what the daemon is working with.
enum HealthHandler {
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        let library = service.ruleSets.library
        ticket.answer(
            .json(
                200,
                .object([
                    ("status", .string(service.isDraining ? "draining" : "ok")),
                    ("version", .string(AuditCoreVersion.string)),
                    ("uptime_s", .number((service.uptime * 1000).rounded() / 1000)),
                    ("rulesets", .array(library.names.map(JSON.string))),
                    ("journal", .object([("path", .string(service.journal.path)), ("seq", .int(Int(service.journal.lastSeq)))])),
                    ("workers", .int(service.pool.workers)),
                    ("in_flight", .int(service.pool.running)),
                    ("queued", .int(service.pool.queued)),
                ])))
        service.metrics.requestFinished(route: "health", status: 200)
    }
}
