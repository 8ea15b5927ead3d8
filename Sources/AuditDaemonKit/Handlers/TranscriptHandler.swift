import AuditCore
import AuditTransport

/// `POST /v1/transcripts?reader=talkback[:order]|voiceover`: what the screen reader says on the
/// snapshot's screen, stop by stop (docs/transcripts.md). The same bodies as
/// `/v1/audits` (the XML, or a form with a screenshot, which a transcript reads only with
/// `ocr=1`: TalkBack's text recognition on unlabelled stops); parsed on the pool. Nothing is journalled: each audit's record carries its transcript.
enum TranscriptHandler {
    /// A request's snapshot, or the answer that refuses it.
    enum Parsed {
        case snapshot(Snapshot)
        case refused(HTTPResponse)
    }

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
            let parsed: Parsed = upload.snapshot.withUnsafeBytes { bytes in
                do throws(SnapshotError) {
                    let snapshot = queryIdentity.merging(upload.identity).apply(to: try SnapshotParser(options: options).parse(bytes))
                    if let refusal = SnapshotIdentity.refusal(of: snapshot) { return .refused(refusal) }
                    return .snapshot(snapshot)
                } catch {
                    return .refused(SnapshotRequest.response(to: error))
                }
            }
            let response: HTTPResponse
            switch parsed {
            case .refused(let refusal): response = refusal
            case .snapshot(var snapshot):
                if ocr, let image = upload.screenshot {
                    let imageMemory = MemoryReservation(service.memory)
                    defer { imageMemory.release() }
                    let budget = AuditBudget(seconds: budgetSeconds, startingAt: started, cancellation: cancellation)
                    do throws(ImageError) {
                        let header = try ImageDecoder.header(of: image, limits: imageLimits)
                        try snapshot.checkFits(header)
                        guard imageMemory.grow(to: header.decodeBytes) else {
                            service.loop.async { finish(service, ticket, HTTPResponse.memoryRefusal(service.memory, needing: header.decodeBytes)) }
                            return
                        }
                        snapshot = try snapshot.attaching(ImageDecoder.decode(image, limits: imageLimits, shouldStop: { budget.isExhausted }))
                        if let mapping = snapshot.screenshot, !budget.isExhausted {
                            let remaining = min(Double(budget.deadline &- min(budget.deadline, Timestamp.monotonic())) / 1e9, service.settings.ocrBudget)
                            snapshot = snapshot.recognizing(
                                service.recognizer.recognize(mapping, systems: WritingSystems.of(snapshot), seconds: remaining, shouldStop: { cancellation.isCancelled }))
                        }
                    } catch  where error.code == .stopped {
                        // Out of time: the transcript is made without the pixels.
                    } catch {
                        service.loop.async { finish(service, ticket, AuditUpload.response(to: error)) }
                        return
                    }
                }
                response = .json(200, TranscriptWriter.json(Transcript(snapshot, reader: chosen?.reader, order: chosen?.order), of: snapshot))
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
