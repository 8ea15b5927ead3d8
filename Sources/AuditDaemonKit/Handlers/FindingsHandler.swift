import AuditCore

/// `GET /v1/findings?since=SEQ&follow=1`: journal records with a seq greater than `since`,
/// as JSON Lines; with `follow`, a chunked response that stays open and delivers new
/// records as they become durable.
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
        let headers = [("Content-Type", "application/x-ndjson")]
        server.metrics.requestFinished(route: "findings", status: 200)
        if !follow {
            let collected = MutexBox<[UInt8]>([])
            server.journal.read(since: since, deliver: { chunk in collected.set(collected.get() + chunk) }, then: nil) { _ in
                server.queue.async { ticket.answer(HTTPResponse(status: 200, headers: headers, body: collected.get())) }
            }
            return
        }
        let connection = ticket.connection
        server.queue.async { connection.startStream(ticket, head: HTTPResponse(status: 200, headers: headers)) }
        let open = MutexBox(true)
        let deliver: @Sendable ([UInt8]) -> Void = { chunk in
            server.queue.async { connection.send(chunk: chunk) }
        }
        server.journal.read(since: since, deliver: deliver, then: { chunk in
            guard open.get() else { return false }
            deliver(chunk)
            return true
        }) { followerID in
            server.queue.async {
                guard let followerID else { return }
                if connection.isClosed {
                    server.journal.unfollow(followerID)
                } else {
                    connection.onStreamClosed = {
                        open.set(false)
                        server.journal.unfollow(followerID)
                    }
                }
            }
        }
    }
}
