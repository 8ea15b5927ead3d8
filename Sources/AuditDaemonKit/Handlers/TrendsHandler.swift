import AuditCore
import AuditTransport
import AuditHistory

/// `GET /v1/trends?app=A[&screen=S][&build=B|latest]`: the app's builds, each screen's findings
/// compared with its last earlier audit (docs/trends.md); `GET /v1/trends` without `app=`:
/// every app with its latest build's counts; and `GET /v1/trends/baseline?
/// app=A&build=B|latest[&exclude=B]`: what `auditctl audit --since-build` compares with.
/// Answered from the trend index on its own queue: the event loop and the audits never
/// wait for it.
enum TrendsHandler {
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        guard let trends = index(service, ticket) else { return }
        guard let app = nonEmpty(request.query["app"]) else {
            trends.read({ store throws(SQLiteError) in try TrendHistory.apps(store: store) }) { result in
                service.loop.async { finish(service, ticket, response(result.map { .success($0) })) }
            }
            return
        }
        let query = TrendHistory.Query(app: app, screen: nonEmpty(request.query["screen"]), build: nonEmpty(request.query["build"]))
        trends.read(app: app, { store throws(SQLiteError) in try TrendHistory.json(query, store: store) }) { result in
            service.loop.async { finish(service, ticket, response(result)) }
        }
    }

    static func baseline(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        guard let trends = index(service, ticket), let app = requiredApp(service, ticket, request) else { return }
        guard let build = nonEmpty(request.query["build"]) else {
            finish(
                service, ticket,
                .error(400, code: "missing-build", message: "the baseline needs build=B (or build=latest)", hint: "GET /v1/trends?app=A lists the builds"))
            return
        }
        let excluding = nonEmpty(request.query["exclude"])
        trends.read({ store throws(SQLiteError) in try TrendHistory.baseline(app: app, build: build, excluding: excluding, store: store) }) {
            result in
            service.loop.async { finish(service, ticket, response(result)) }
        }
    }

    /// The index, or a 404 when the daemon runs without one (`--trend-index none`).
    static func index(_ service: ServiceContext, _ ticket: Ticket) -> TrendIndex? {
        guard let trends = service.trends else {
            finish(
                service, ticket,
                .error(
                    404, code: "trends-disabled", message: "this daemon keeps no trend index (--trend-index none)",
                    hint: "start auditd without --trend-index none, or read the journal (GET /v1/findings)"))
            return nil
        }
        return trends
    }

    static func nonEmpty(_ value: String?) -> String? { value?.isEmpty == false ? value : nil }

    static func requiredApp(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) -> String? {
        guard let app = nonEmpty(request.query["app"]) else {
            finish(
                service, ticket,
                .error(
                    400, code: "missing-app", message: "trends are per app: give app=A",
                    hint: "the app is what audits were posted with (app= or the snapshot's own)"))
            return nil
        }
        return app
    }

    static func response(_ result: Result<Result<JSON, TrendHistory.Problem>, SQLiteError>) -> HTTPResponse {
        switch result {
        case .failure(let error):
            return .error(500, code: "trend-index", message: "the trend index cannot be read: \(error.description)")
        case .success(.failure(let problem)):
            let code = if case .unknownApp = problem { "unknown-app" } else { "unknown-build" }
            return .error(404, code: code, message: problem.message, hint: problem.hint)
        case .success(.success(let json)):
            return .json(200, json)
        }
    }

    static func finish(_ service: ServiceContext, _ ticket: Ticket, _ response: HTTPResponse) {
        ticket.answer(response)
        service.metrics.requestFinished(route: "trends", status: response.status)
    }
}
