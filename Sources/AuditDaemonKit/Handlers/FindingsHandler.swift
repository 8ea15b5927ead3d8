import AuditCore

/// `GET /v1/findings?since=SEQ&follow=1`: journal records with a seq greater than `since`,
/// as JSON Lines in a chunked body read from the files as the client takes it (never the
/// whole journal in memory); with `follow`, the response stays open and delivers new
/// records as they become durable, until the client leaves or lags too far behind.
enum FindingsHandler {
    static func handle(_ server: Server, _ ticket: Ticket, _ request: HTTPRequest) {
        let query = request.query
        var since: UInt64 = 0
        if let text = query["since"], !text.isEmpty {
            guard let value = UInt64(text) else {
                ticket.answer(.error(400, code: "bad-since", message: "since must be a seq number (0 or more)"))
                server.metrics.requestFinished(route: "findings", status: 400)
                return
            }
            since = value
        }
        let follow = ["1", "true", "yes"].contains(query["follow"]?.lowercased() ?? "")
        // HTTP/1.0 cannot read chunked bodies: its body ends with the connection.
        let chunked = request.version == "HTTP/1.1"
        let head = HTTPResponse(status: 200, headers: [("Content-Type", "application/x-ndjson")])
        server.metrics.requestFinished(route: "findings", status: 200)
        let connection = ticket.connection
        let open = Locked(true)
        let loop = server.loop
        let live: Journal.Follower = { (chunk: [UInt8]) -> Bool in
            guard open.get() else { return false }
            loop.async { connection.send(chunk: chunk) }
            return true
        }
        let follower: Journal.Follower? = follow ? live : nil
        server.journal.backlog(since: since, then: follower) { backlog, followerID in
            server.loop.async {
                let stream = ResponseStream(head: head, follows: follow, chunked: chunked) { out, limit in backlog.fill(&out, limit: limit) }
                if let followerID {
                    stream.onEnd = {
                        open.set(false)
                        server.journal.unfollow(followerID)
                    }
                }
                connection.startStream(ticket, stream)
            }
        }
    }
}
