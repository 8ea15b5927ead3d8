import AuditCore
import AuditTransport
import Dispatch

/// `POST /v1/audits?ruleset=NAME`: the request checked on the event loop, the audit's
/// stages run on the pool (``AuditJob``), the records journalled, and 200 answered only
/// once they are on disk.
enum AuditHandler {
    static func handle(_ service: ServiceContext, _ ticket: Ticket, _ request: HTTPRequest) {
        let requested = request.query["ruleset"].flatMap { $0.isEmpty ? nil : $0 }
        // Boxed so the bytes can be let go as soon as they are read: the form is split on
        // the worker (a crafted 32 MiB form costs a third of a second, which the event
        // loop's other clients must not wait for).
        let received = Box(request)
        let imageLimits = ImageLimits(maxBytes: service.settings.limits.bodyBytes)
        guard let (options, queryIdentity) = SnapshotRequest.read(service, request, refuse: { finish(service, ticket, $0) }) else { return }
        let budgetSeconds = service.settings.auditBudget
        let cancellation = ticket.connection.cancellation
        let library = service.ruleSets.library
        if let requested, library[requested] == nil {
            finish(
                service, ticket,
                .error(
                    422, code: "unknown-ruleset",
                    message: "no rule set named \"\(requested)\"; have \(library.names.joined(separator: ", "))"))
            return
        }
        let (firstByteAt, lastByteAt) = (request.firstByteAt, request.lastByteAt)
        let memory = request.memory
        // OCR of the screenshot (docs/ocr.md): opt-in, on a pool of its own.
        let ocr = ["1", "true", "yes"].contains(request.query["ocr"]?.lowercased() ?? "")
        let pool = ocr ? service.ocrPool : service.pool
        let accepted = pool.submit {
            // The body's memory is given back when the audit is done, answered or not.
            defer { memory?.release() }
            let started = Timestamp.monotonic()
            // The client left while this audit waited: nothing to answer, nothing to journal.
            if cancellation.isCancelled {
                service.metrics.auditAbandoned()
                return
            }
            guard let upload = SnapshotRequest.upload(received, refuse: { response in service.loop.async { finish(service, ticket, response) } })
            else { return }
            let imageMemory = MemoryReservation(service.memory)
            defer { imageMemory.release() }
            // A large snapshot is parsed on two threads only while a core is free: with
            // every worker busy, the second thread only adds its overhead (four concurrent
            // 10k audits: 150 ms on two threads each, 120 ms on one).
            var options = options
            if service.pool.running >= service.pool.workers { options.twoThreadBytes = .max }
            let budget = AuditBudget(seconds: budgetSeconds, startingAt: started, cancellation: cancellation)
            var job = AuditJob(
                service: service, options: options, identity: queryIdentity.merging(upload.identity), requestedRuleSet: requested, ocr: ocr,
                budget: budget, imageLimits: imageLimits, imageMemory: imageMemory, started: started)
            if lastByteAt > 0 {
                job.timing.add(.receive, from: firstByteAt, to: lastByteAt)
                job.timing.add(.queue, from: lastByteAt, to: started)
            }
            let outcome = job.run(source: upload.snapshot, screenshot: upload.screenshot)
            let seconds = Double(Timestamp.monotonic() - started) / 1e9
            switch outcome {
            case .failure(let response):
                service.loop.async { finish(service, ticket, response, seconds: seconds) }
            case .abandoned:
                // Stopped because the client went away: it reads no answer, so none is journalled.
                service.metrics.auditAbandoned()
            case .report where budget.isCancelled:
                // It went away while the answer was rendered.
                service.metrics.auditAbandoned()
            case .report(let audited):
                journalAndAnswer(audited, timing: job.timing, seconds: seconds, service, ticket)
            }
        }
        if !accepted {
            finish(
                service, ticket,
                .error(
                    503, code: "saturated", message: "auditd is saturated; retry shortly",
                    extraHeaders: [("Retry-After", "1")]))
        }
    }

    /// `journal`, then the answer: 200 only once the records are on disk, with every
    /// stage's time in `Server-Timing`.
    static func journalAndAnswer(_ audited: AuditJob.Audited, timing: ServerTiming, seconds: Double, _ service: ServiceContext, _ ticket: Ticket) {
        if audited.ranOutOfBudget { service.metrics.budgetExceeded() }
        let journalStarted = Timestamp.monotonic()
        let answer = HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], pieces: audited.entry.rendered.pieces)
        // Only bytes and counts wait for the journal's sync, not the findings.
        let counts = audited.findingCounts
        let identity = audited.identity
        // Answers of one flush come back to the I/O queue together.
        service.journal.append(audited.entry, completionQueue: service.loop) { result in
            switch result {
            case .success:
                // Durable: it counts toward the app's latest build.
                service.metrics.auditRecorded(app: identity.app, build: identity.build, screen: identity.screen, findingCounts: counts)
                service.trends?.journalAdvanced()
                var timing = timing
                timing.add(.journal, from: journalStarted, to: Timestamp.monotonic())
                var answer = answer
                answer.headers.append(("Server-Timing", timing.headerValue))
                service.metrics.auditPhases(timing)
                finish(service, ticket, answer, seconds: seconds, findingCounts: counts)
            case .failure(let error):
                finish(
                    service, ticket,
                    .error(
                        507, code: "journal-write-failed",
                        message: "the findings could not be stored: \(error.description)",
                        hint: "free disk space for the journal; auditd recovers by itself"),
                    seconds: seconds)
            }
        }
        // A large screen's model left tens of megabytes of free blocks: handed back while
        // the journal syncs (off the answer's path), the next audit's peak does not stand on
        // them.
        if audited.sourceBytes >= FreedMemory.trimAfterSnapshotBytes { FreedMemory.giveBack() }
    }

    static func finish(
        _ service: ServiceContext, _ ticket: Ticket, _ response: HTTPResponse, seconds: Double? = nil,
        findingCounts: [String: Int] = [:]
    ) {
        ticket.answer(response)
        service.metrics.requestFinished(route: "audits", status: response.status)
        service.metrics.auditFinished(status: response.status, seconds: seconds, findingCounts: findingCounts)
    }
}
