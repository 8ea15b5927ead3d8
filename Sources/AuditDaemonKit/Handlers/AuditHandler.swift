import AuditCore
import AuditTransport
import Dispatch

/// `POST /v1/audits?ruleset=NAME`: parse the snapshot, audit it on the pool, journal the
/// records, and answer 200 only once they are on disk.
enum AuditHandler {
    enum Outcome {
        case report(Audited)
        case failure(HTTPResponse)
        /// Stopped because the client went away: nothing to render, answer or journal.
        case abandoned
    }

    /// What the answer and the journal need of an audit, its model let go.
    struct Audited {
        var entry: AuditJournalEntry
        var findingCounts: [String: Int]
        var ranOutOfBudget: Bool
        var identity: (app: String?, build: String?, screen: String?)
        /// The snapshot's size: a large one's model left tens of megabytes of free blocks.
        var sourceBytes: Int
    }

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
        let spillAfter = service.settings.spillFindingsAfterBytes
        let spillDirectory = service.spillDirectory
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
            let identity = queryIdentity.merging(upload.identity)
            let body = Box(upload.snapshot)
            let screenshotBytes = upload.screenshot.map(Box.init)
            // The decoded screenshot's share of the memory budget, for the audit's length.
            let imageMemory = MemoryReservation(service.memory)
            defer { imageMemory.release() }
            let budget = AuditBudget(seconds: budgetSeconds, startingAt: started, cancellation: cancellation)
            var timing = ServerTiming()
            if lastByteAt > 0 {
                timing.add(ServerTiming.receive, from: firstByteAt, to: lastByteAt)
                timing.add(ServerTiming.queue, from: lastByteAt, to: started)
            }
            // A large snapshot is parsed on two threads only while a core is free: with
            // every worker busy, the second thread only adds its overhead (four concurrent
            // 10k audits: 150 ms on two threads each, 120 ms on one).
            var options = options
            if service.pool.running >= service.pool.workers { options.twoThreadBytes = .max }
            let outcome: Outcome = {
                var source = body.take()
                let sourceBytes = source.count
                let parsed: Result<Snapshot, SnapshotError> = source.withUnsafeBytes { bytes in
                    do throws(SnapshotError) { return .success(try SnapshotParser(options: options).parse(bytes)) } catch { return .failure(error) }
                }
                var snapshot: Snapshot
                // Consumed: the snapshot's elements are let go with it after the audit.
                switch consume parsed {
                case .success(let parsed):
                    snapshot = identity.apply(to: parsed)
                    if let refusal = SnapshotIdentity.refusal(of: snapshot) { return .failure(refusal) }
                    timing.add(ServerTiming.parse, from: started, to: Timestamp.monotonic())
                case .failure(let error):
                    return .failure(SnapshotRequest.response(to: error))
                }
                if let screenshotBytes {
                    let decodeStarted = Timestamp.monotonic()
                    let image = screenshotBytes.take()
                    do throws(ImageError) {
                        // Size, fit and memory are settled from the header, before a pixel is decoded.
                        let header = try ImageDecoder.header(of: image, limits: imageLimits)
                        try snapshot.checkFits(header)
                        guard imageMemory.grow(to: header.decodeBytes) else {
                            return .failure(HTTPResponse.memoryRefusal(service.memory, needing: header.decodeBytes))
                        }
                        snapshot = try snapshot.attaching(ImageDecoder.decode(image, limits: imageLimits, shouldStop: { budget.isExhausted }))
                    } catch  where error.code == .stopped {
                        // Out of budget (or the client left) while decoding: the rules
                        // are reported incomplete for it below, none judged without pixels.
                    } catch {
                        return .failure(AuditUpload.response(to: error))
                    }
                    timing.add(ServerTiming.image, from: decodeStarted, to: Timestamp.monotonic())
                }
                if ocr, let mapping = snapshot.screenshot, !budget.isExhausted {
                    let ocrStarted = Timestamp.monotonic()
                    let remaining = min(Double(budget.deadline &- min(budget.deadline, ocrStarted)) / 1e9, service.settings.ocrBudget)
                    snapshot = snapshot.recognizing(
                        service.recognizer.recognize(mapping, systems: WritingSystems.of(snapshot), seconds: remaining, shouldStop: { cancellation.isCancelled }))
                    timing.add(ServerTiming.ocr, from: ocrStarted, to: Timestamp.monotonic())
                }
                guard var ruleSet = requested.flatMap({ library[$0] }) ?? library.defaultSet(for: snapshot.platform) else {
                    // The daemon was started without the default sets: its configuration, not the request, is wrong.
                    return .failure(
                        .error(
                            500, code: "no-default-ruleset",
                            message: "no rule set for platform \(snapshot.platform.rawValue): the daemon has none of ios-default, android-default, wcag22-aa",
                            hint: "install the shipped rule sets or pass ?ruleset=NAME"))
                }
                // Asking for OCR runs the checks that read it, whatever the rule set.
                if ocr {
                    ruleSet = ruleSet.including([TextUnexposedRule.self, TextTruncatedRule.self])
                } else if snapshot.screenshot != nil {
                    // A screenshot runs the part of text.truncated the pixels alone judge: a
                    // drawn ellipsis, in any script.
                    ruleSet = ruleSet.including([TextTruncatedRule.self])
                }
                // Only XPath rules read the snapshot's bytes again: without them the bytes
                // are let go before the rules run (7.4 MB of a 100k-element screen's peak).
                if ruleSet.customRules.isEmpty { source = [] }
                // What the screen reader says, for the journal: build over build, a changed
                // digest says the screen sounds different (docs/transcripts.md). Taken
                // before the audit, which lets the transcript go once its rules have read it.
                let spoken = Transcript.Summary(Transcript.of(snapshot), speechLimit: AuditJournalEntry.maxTranscriptStops)
                // A finding-heavy screen's written findings past a size wait on disk while
                // the model is still held (docs/PERFORMANCE.md).
                let spill = spillAfter > 0 ? Auditor.Spill(file: SpillFile(directory: spillDirectory), afterBytes: spillAfter) : nil
                let report = source.withUnsafeBytes { Auditor.audit(snapshot, ruleSet: ruleSet, source: $0, budget: budget, spill: spill) }
                timing.add(ServerTiming.rules, milliseconds: report.durationMilliseconds - report.findingsMilliseconds)
                timing.add(ServerTiming.findings, milliseconds: report.findingsMilliseconds)
                if budget.isCancelled { return .abandoned }
                // Render on the worker, then free it: waiting for the journal's fdatasync
                // needs no CPU, and concurrent audits share one sync. The same bytes serve
                // the answer and the journal's finding records.
                let renderStarted = Timestamp.monotonic()
                var entry = AuditJournalEntry(report, rendered: report.rendered(), transcript: spoken)
                let audited = (
                    counts: Metrics.findingCounts(report), ranOut: AuditBudget.ranOut(in: report),
                    identity: (app: report.app, build: report.build, screen: report.screen)
                )
                // The snapshot and its findings go before what was spilled is read back:
                // the two are never held together.
                _ = consume report
                _ = consume snapshot
                source = []
                do throws(SpillError) {
                    if let spill, spill.file.byteCount > 0 { service.metrics.findingsSpilled(bytes: spill.file.byteCount) }
                    try entry.readSpilled()
                } catch {
                    return .failure(
                        .error(
                            507, code: "spill-read-failed", message: "the findings could not be read back: \(error.description)",
                            hint: "check the disk under the journal's directory; auditd recovers by itself"))
                }
                timing.add(ServerTiming.render, from: renderStarted, to: Timestamp.monotonic())
                return .report(
                    Audited(entry: entry, findingCounts: audited.counts, ranOutOfBudget: audited.ranOut, identity: audited.identity, sourceBytes: sourceBytes))
            }()
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
                if audited.ranOutOfBudget { service.metrics.budgetExceeded() }
                let journalStarted = Timestamp.monotonic()
                let answer = HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], pieces: audited.entry.rendered.pieces)
                // Only bytes and counts wait for the journal's sync, not the findings.
                let counts = audited.findingCounts
                let identity = audited.identity
                let timingBeforeJournal = timing
                // Answers of one flush come back to the I/O queue together.
                service.journal.append(audited.entry, completionQueue: service.loop) { result in
                    switch result {
                    case .success:
                        // Durable: it counts toward the app's latest build.
                        service.metrics.auditRecorded(app: identity.app, build: identity.build, screen: identity.screen, findingCounts: counts)
                        service.trends?.journalAdvanced()
                        var timing = timingBeforeJournal
                        timing.add(ServerTiming.journal, from: journalStarted, to: Timestamp.monotonic())
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
                // A large screen's model left tens of megabytes of free blocks: handed back
                // while the journal syncs (off the answer's path), the next audit's peak does
                // not stand on them.
                if audited.sourceBytes >= FreedMemory.trimAfterSnapshotBytes { FreedMemory.giveBack() }
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

    static func finish(
        _ service: ServiceContext, _ ticket: Ticket, _ response: HTTPResponse, seconds: Double? = nil,
        findingCounts: [String: Int] = [:]
    ) {
        ticket.answer(response)
        service.metrics.requestFinished(route: "audits", status: response.status)
        service.metrics.auditFinished(status: response.status, seconds: seconds, findingCounts: findingCounts)
    }
}
