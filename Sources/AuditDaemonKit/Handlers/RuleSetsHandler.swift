import AuditCore
import AuditTransport

/// `GET /v1/rulesets` (and `/v1/rulesets/NAME`): rule sets with their rules, thresholds
/// and severities.
enum RuleSetsHandler {
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        let library = service.ruleSets.library
        let path = request.path
        if path.count > "/v1/rulesets/".count, path.hasPrefix("/v1/rulesets/") {
            let name = HTTPRequest.percentDecode(String(path.dropFirst("/v1/rulesets/".count)))
            guard let set = library[name] else {
                ticket.answer(.error(404, code: "unknown-ruleset", message: "no rule set named \"\(name)\""))
                service.metrics.requestFinished(route: "rulesets", status: 404)
                return
            }
            ticket.answer(.json(200, set.json))
        } else {
            ticket.answer(.json(200, .object([("rulesets", .array(library.names.compactMap { library[$0]?.json }))])))
        }
        service.metrics.requestFinished(route: "rulesets", status: 200)
    }
}
