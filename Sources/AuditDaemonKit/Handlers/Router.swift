import AuditCore
import AuditTransport

/// Maps method and path to a handler by the route table (``Route/table``, docs/API.md),
/// answering 404 and 405 itself.
struct Router {
    let service: ServiceContext

    func route(_ ticket: Ticket, _ request: HTTPRequest) {
        let path = request.path
        let matching = Route.table.filter { $0.serves(path) }
        guard !matching.isEmpty else {
            ticket.answer(.error(404, code: "not-found", message: "no route \(path); see GET /v1/health for the API"))
            service.metrics.requestFinished(route: "unknown", status: 404)
            return
        }
        guard let route = matching.first(where: { $0.method == request.method }) else {
            let allowed = matching.map(\.method).joined(separator: ", ")
            ticket.answer(
                .error(
                    405, code: "method-not-allowed", message: "\(request.method) is not allowed on \(path); use \(allowed)",
                    extraHeaders: [("Allow", allowed)]))
            service.metrics.requestFinished(route: matching[0].metric, status: 405)
            return
        }
        route.handle(service, ticket, request)
    }
}
