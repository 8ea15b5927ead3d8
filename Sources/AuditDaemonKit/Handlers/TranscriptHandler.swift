import AuditCore
import AuditTransport

/// `POST /v1/transcripts?reader=talkback[:order]|voiceover`: what the screen reader says on the
/// snapshot's screen, stop by stop (docs/transcripts.md). The same bodies as
/// `/v1/audits` (the XML, or a form with a screenshot, which a transcript reads only with
/// `ocr=1`: TalkBack's text recognition on unlabelled stops); parsed on the pool. Nothing is journalled: each audit's record carries its transcript.
enum TranscriptHandler {
    /// A request's snapshot, or the answer that refuses it.
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        guard let (options, queryIdentity) = SnapshotRequest.read(service, request, refuse: { finish(service, ticket, $0) }) else { return }
        var choice: ReaderChoice?
        if let text = request.query["reader"], !text.isEmpty {
            switch ReaderChoice.parse(text) {
            case .success(let parsed): choice = parsed
            case .failure(let error):
                finish(
                    service, ticket,
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
        // With `ocr=1` and a screenshot, TalkBack's text recognition on unlabelled stops
        // (docs/transcripts.md): on the OCR pool, as an audit's OCR is.
        let ocr = ["1", "true", "yes"].contains(request.query["ocr"]?.lowercased() ?? "")
        let imageLimits = ImageLimits(maxBytes: service.settings.limits.bodyBytes)
        let budgetSeconds = service.settings.auditBudget
        let accepted = (ocr ? service.ocrPool : service.pool).submit {
            defer { memory?.release() }
            let started = Timestamp.monotonic()
            if cancellation.isCancelled { return }
            guard let upload = SnapshotRequest.upload(received, refuse: { response in service.loop.async { finish(service, ticket, response) } })
            else { return }
            // The audit's own stages: the capture parsed, and with OCR its screenshot decoded
            // and read (out of time, the transcript is made without the pixels).
            let imageMemory = MemoryReservation(service.memory)
            defer { imageMemory.release() }
            var job = AuditJob(
                service: service, options: options, identity: queryIdentity.merging(upload.identity), requestedRuleSet: nil, ocr: ocr,
                budget: AuditBudget(seconds: budgetSeconds, startingAt: started, cancellation: cancellation), imageLimits: imageLimits,
                imageMemory: imageMemory, started: started)
            let response: HTTPResponse
            do throws(AuditJob.Refusal) {
                var snapshot = try job.parse(upload.snapshot)
                if ocr, let image = upload.screenshot {
                    snapshot = job.recognize(try job.attach(image, to: snapshot))
                }
                response = .json(200, TranscriptWriter.json(Transcript(snapshot, reader: chosen?.reader, order: chosen?.order), of: snapshot))
            } catch {
                response = error.response
            }
            service.loop.async { finish(service, ticket, response) }
        }
        if !accepted {
            finish(service, ticket, .error(503, code: "saturated", message: "auditd is saturated; retry shortly", extraHeaders: [("Retry-After", "1")]))
        }
    }

    static func finish(_ service: ServiceContext, _ ticket: Ticket, _ response: HTTPResponse) {
        ticket.answer(response)
        service.metrics.requestFinished(route: "transcripts", status: response.status)
    }
}
