import AuditCore
import AuditTransport

/// `GET /v1/findings?since=SEQ&follow=1`: journal records with a seq greater than `since`,
/// as JSON Lines in a chunked body read from the files as the client takes it (never the
/// whole journal in memory); with `follow`, the response stays open and delivers new
/// records as they become durable, until the client leaves or lags too far behind.
///
/// Nothing goes missing without a word: the answer names the journal (`Journal-Id`, another
/// when its seq began again at 1) and the oldest record its files still hold
/// (`Journal-First-Seq`); asked for records after `since` when rotation has taken some of
/// them away, it answers 410 `records-gone` with the range lost, not the rest as if whole.
enum FindingsHandler {
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        let query = request.query
        var since: UInt64 = 0
        if let text = query["since"], !text.isEmpty {
            guard let value = UInt64(text) else {
                ticket.answer(.error(400, code: "bad-since", message: "since must be a seq number (0 or more)"))
                service.metrics.requestFinished(route: "findings", status: 400)
                return
            }
            since = value
        }
        let follow = ["1", "true", "yes"].contains(query["follow"]?.lowercased() ?? "")
        // HTTP/1.0 cannot read chunked bodies: its body ends with the connection.
        let chunked = request.version == "HTTP/1.1"
        let identity = service.journal.identity
        let asked = since
        let connection = ticket.connection
        let open = Locked(true)
        let loop = service.loop
        let live: Journal.Follower = { (chunk: [UInt8]) -> Bool in
            guard open.get() else { return false }
            loop.async { connection.send(chunk: chunk) }
            return true
        }
        let follower: Journal.Follower? = follow ? live : nil
        service.journal.backlog(since: asked, then: follower) { backlog, followerID in
            service.loop.async {
                let facts = [("Journal-Id", identity), ("Journal-First-Seq", String(backlog.firstHeld))]
                // Records after `since` that rotation took away: say so, send none.
                if asked > 0, backlog.firstHeld > asked + 1 {
                    if let followerID { service.journal.unfollow(followerID) }
                    ticket.answer(
                        .error(
                            410, code: "records-gone",
                            message: "records \(asked + 1)…\(backlog.firstHeld - 1) are no longer in the journal (rotated away); it holds \(backlog.firstHeld) on",
                            hint: "ship more often or keep more files (--journal-keep); to go on without them, ask since=\(backlog.firstHeld - 1)",
                            extraHeaders: facts))
                    service.metrics.requestFinished(route: "findings", status: 410)
                    return
                }
                service.metrics.requestFinished(route: "findings", status: 200)
                let head = HTTPResponse(status: 200, headers: [("Content-Type", "application/x-ndjson")] + facts)
                let stream = ResponseStream(head: head, follows: follow, chunked: chunked) { out, limit in backlog.fill(&out, limit: limit) }
                if let followerID {
                    stream.onEnd = {
                        open.set(false)
                        service.journal.unfollow(followerID)
                    }
                }
                connection.startStream(ticket, stream)
            }
        }
    }
}
