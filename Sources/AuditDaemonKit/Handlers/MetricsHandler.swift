import AuditTransport
/// `GET /metrics`: the Prometheus text exposition.
enum MetricsHandler {
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        service.metrics.requestFinished(route: "metrics", status: 200)
        let text = service.metrics.render(
            queueDepth: service.pool.queued, inFlight: service.pool.running, workers: service.pool.workers,
            journal: service.journal, ruleSets: service.ruleSets.library.names.count, uptime: service.uptime,
            memory: service.memory, changes: service.trends?.latestChanges)
        ticket.answer(.text(200, text, contentType: "text/plain; version=0.0.4; charset=utf-8"))
    }
}
