import AuditTransport
/// `GET /metrics`: the Prometheus text exposition.
enum MetricsHandler {
    static func handle(_ server: Server, _ ticket: Ticket, _ request: HTTPRequest) {
        server.metrics.requestFinished(route: "metrics", status: 200)
        let text = server.metrics.render(
            queueDepth: server.pool.queued, inFlight: server.pool.running, workers: server.pool.workers,
            journal: server.journal, ruleSets: server.ruleSets.library.names.count, uptime: server.uptime,
            memory: server.memory, changes: server.trends?.latestChanges)
        ticket.answer(.text(200, text, contentType: "text/plain; version=0.0.4; charset=utf-8"))
    }
}
