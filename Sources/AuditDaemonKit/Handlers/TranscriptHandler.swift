import AuditCore

/// `POST /v1/transcripts?reader=talkback[:order]|voiceover`: what the screen reader says on the
/// snapshot's screen, stop by stop (docs/transcripts.md). The same bodies as
/// `/v1/audits` (the XML, or a form with a screenshot, which a transcript does not need);
/// parsed on the pool. Nothing is journalled: each audit's record carries its transcript.
enum TranscriptHandler {
    static func handle(_ server: Server, _ ticket: Ticket, _ request: HTTPRequest) {
        guard let (options, queryIdentity) = SnapshotRequest.read(server, request, refuse: { finish(server, ticket, $0) }) else { return }
        var choice: ReaderChoice?
        if let text = request.query["reader"], !text.isEmpty {
            switch ReaderChoice.parse(text) {
            case .success(let parsed): choice = parsed
            case .failure(let error):
                finish(
                    server, ticket,
                    .error(
                        400, code: "bad-reader", message: error.message,
                        hint: "leave it out to use the snapshot's platform's reader; TalkBack's description order follows a colon (talkback:name-role-state)"))
                return
            }
        }
        let chosen = choice
        let received = Box(request)
        let cancellation = ticket.connection.cancellation
        let memory = request.memory
        let accepted = server.pool.submit {
            defer { memory?.release() }
            if cancellation.isCancelled { return }
            guard let upload = SnapshotRequest.upload(received, refuse: { response in server.loop.async { finish(server, ticket, response) } })
            else { return }
            let response: HTTPResponse = upload.snapshot.withUnsafeBytes { bytes in
                do throws(SnapshotError) {
                    let snapshot = queryIdentity.merging(upload.identity).apply(to: try SnapshotParser(options: options).parse(bytes))
                    if let refusal = SnapshotIdentity.refusal(of: snapshot) { return refusal }
                    return .json(200, TranscriptWriter.json(Transcript(snapshot, reader: chosen?.reader, order: chosen?.order), of: snapshot))
                } catch {
                    return SnapshotRequest.response(to: error)
                }
            }
            server.loop.async { finish(server, ticket, response) }
        }
        if !accepted {
            finish(server, ticket, .error(503, code: "saturated", message: "auditd is saturated; retry shortly", extraHeaders: [("Retry-After", "1")]))
        }
    }

    static func finish(_ server: Server, _ ticket: Ticket, _ response: HTTPResponse) {
        ticket.answer(response)
        server.metrics.requestFinished(route: "transcripts", status: response.status)
    }
}
