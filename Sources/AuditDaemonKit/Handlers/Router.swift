import AuditCore

/// Maps method and path to a handler (docs/API.md), answering 404 and 405 itself.
struct Router {
    unowned let server: Server

    struct Route {
        var path: String
        var method: String
        var name: String
        var handle: (Server, Ticket, HTTPRequest) -> Void
    }

    static var routes: [Route] {
        [
            Route(path: "/v1/audits", method: "POST", name: "audits", handle: AuditHandler.handle),
            Route(path: "/v1/transcripts", method: "POST", name: "transcripts", handle: TranscriptHandler.handle),
            Route(path: "/v1/findings", method: "GET", name: "findings", handle: FindingsHandler.handle),
            Route(path: "/v1/rulesets", method: "GET", name: "rulesets", handle: RuleSetsHandler.handle),
            Route(path: "/v1/trends", method: "GET", name: "trends", handle: TrendsHandler.handle),
            Route(path: "/v1/trends/baseline", method: "GET", name: "trends", handle: TrendsHandler.baseline),
            Route(path: "/v1/health", method: "GET", name: "health", handle: HealthHandler.handle),
            Route(path: "/metrics", method: "GET", name: "metrics", handle: MetricsHandler.handle),
        ]
    }

    func route(_ ticket: Ticket, _ request: HTTPRequest) {
        let path = request.path
        let matching = Router.routes.filter { $0.path == path || (path.hasPrefix($0.path + "/") && $0.name == "rulesets") }
        guard !matching.isEmpty else {
            ticket.answer(.error(404, code: "not-found", message: "no route \(path); see GET /v1/health for the API"))
            server.metrics.requestFinished(route: "unknown", status: 404)
            return
        }
        guard let route = matching.first(where: { $0.method == request.method }) else {
            let allowed = matching.map(\.method).joined(separator: ", ")
            ticket.answer(
                .error(
                    405, code: "method-not-allowed", message: "\(request.method) is not allowed on \(path); use \(allowed)",
                    extraHeaders: [("Allow", allowed)]))
            server.metrics.requestFinished(route: matching[0].name, status: 405)
            return
        }
        route.handle(server, ticket, request)
    }
}
