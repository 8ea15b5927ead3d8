import AuditCore
import AuditTransport

/// One audit on a worker, as its typed stages (``AuditStage``): ``parse(_:)``,
/// ``attach(_:to:)`` (the screenshot), ``recognize(_:)`` (OCR), ``audit(_:source:)`` (the
/// rules and their findings) and ``render(_:spoken:)``, each taking what the one before it
/// gave and timed under its stage's name. ``run(source:screenshot:)`` runs them in order;
/// the journal and the answer follow on the event loop (``AuditHandler``). A stage that
/// cannot go on throws the answer to give instead (``Refusal``); what a stage no longer
/// needs is let go before the next one runs, so the source, the model and the findings are
/// never all held at once.
struct AuditJob {
    /// The answer to give instead of a report.
    struct Refusal: Error {
        let response: HTTPResponse
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

    /// How the job ended.
    enum Outcome {
        case report(Audited)
        case failure(HTTPResponse)
        /// Stopped because the client went away: nothing to render, answer or journal.
        case abandoned
    }

    let service: ServiceContext
    var options: SnapshotParser.Options
    let identity: SnapshotIdentity
    /// The rule set asked for (`?ruleset=`); nil: the platform's.
    let requestedRuleSet: String?
    let ocr: Bool
    let budget: AuditBudget
    let imageLimits: ImageLimits
    /// The decoded screenshot's share of the memory budget, for the audit's length.
    let imageMemory: MemoryReservation
    /// When the worker took the job (monotonic nanoseconds).
    let started: UInt64
    /// Each stage's time, in order.
    var timing = ServerTiming()
    /// Where the findings past a size waited on disk during the audit.
    private var spill: Auditor.Spill? = nil

    init(
        service: ServiceContext, options: SnapshotParser.Options, identity: SnapshotIdentity, requestedRuleSet: String?, ocr: Bool,
        budget: AuditBudget, imageLimits: ImageLimits, imageMemory: MemoryReservation, started: UInt64
    ) {
        self.service = service
        self.options = options
        self.identity = identity
        self.requestedRuleSet = requestedRuleSet
        self.ocr = ocr
        self.budget = budget
        self.imageLimits = imageLimits
        self.imageMemory = imageMemory
        self.started = started
    }

    // MARK: The stages

    /// `parse`: the capture read into a snapshot, with the request's identity over its own.
    mutating func parse(_ source: [UInt8]) throws(Refusal) -> Snapshot {
        let parsed: Result<Snapshot, SnapshotError> = source.withUnsafeBytes { bytes in
            do throws(SnapshotError) { return .success(try SnapshotParser(options: options).parse(bytes)) } catch { return .failure(error) }
        }
        switch consume parsed {
        case .success(let parsed):
            let snapshot = identity.apply(to: parsed)
            if let refusal = SnapshotIdentity.refusal(of: snapshot) ?? identity.platformRefusal(snapshot) { throw Refusal(response: refusal) }
            timing.add(.parse, from: started, to: Timestamp.monotonic())
            return snapshot
        case .failure(let error):
            throw Refusal(response: SnapshotRequest.response(to: error))
        }
    }

    /// `image`: the screenshot decoded and fitted to the snapshot; size, fit and memory are
    /// settled from its header before a pixel is decoded. Out of budget (or the client gone)
    /// while decoding, the snapshot goes on without pixels: the rules that need them say so.
    mutating func attach(_ image: [UInt8], to snapshot: Snapshot) throws(Refusal) -> Snapshot {
        let decodeStarted = Timestamp.monotonic()
        defer { timing.add(.image, from: decodeStarted, to: Timestamp.monotonic()) }
        let header: ImageDecoder.Header
        do throws(ImageError) {
            header = try ImageDecoder.header(of: image, limits: imageLimits)
            try snapshot.checkFits(header)
        } catch {
            throw Refusal(response: AuditUpload.response(to: error))
        }
        guard imageMemory.grow(to: header.decodeBytes) else {
            throw Refusal(response: HTTPResponse.memoryRefusal(service.memory, needing: header.decodeBytes))
        }
        do throws(ImageError) {
            let budget = self.budget
            return try snapshot.attaching(ImageDecoder.decode(image, limits: imageLimits, shouldStop: { budget.isExhausted }))
        } catch  where error.code == .stopped {
            return snapshot
        } catch {
            throw Refusal(response: AuditUpload.response(to: error))
        }
    }

    /// `ocr`: the screenshot's text read, within what is left of the budget.
    mutating func recognize(_ snapshot: Snapshot) -> Snapshot {
        guard ocr, let mapping = snapshot.screenshot, !budget.isExhausted else { return snapshot }
        let ocrStarted = Timestamp.monotonic()
        let remaining = min(Double(budget.deadline &- min(budget.deadline, ocrStarted)) / 1e9, service.settings.ocrBudget)
        let cancellation = budget.cancellation
        let recognized = snapshot.recognizing(
            service.recognizer.recognize(mapping, systems: WritingSystems.of(snapshot), seconds: remaining, shouldStop: { cancellation?.isCancelled == true }))
        timing.add(.ocr, from: ocrStarted, to: Timestamp.monotonic())
        return recognized
    }

    /// The rule set to audit with: the one asked for, or the platform's; OCR and a
    /// screenshot add the checks that read them, whatever the set.
    func ruleSet(for snapshot: Snapshot) throws(Refusal) -> RuleSet {
        let library = service.ruleSets.library
        guard var ruleSet = requestedRuleSet.flatMap({ library[$0] }) ?? library.defaultSet(for: snapshot.platform) else {
            // The daemon was started without the default sets: its configuration, not the request, is wrong.
            throw Refusal(
                response: .error(
                    500, code: "no-default-ruleset",
                    message: "no rule set for platform \(snapshot.platform.rawValue): the daemon has none of ios-default, android-default, wcag22-aa",
                    hint: "install the shipped rule sets or pass ?ruleset=NAME"))
        }
        if ocr {
            ruleSet = ruleSet.including([TextUnexposedRule.self, TextTruncatedRule.self])
        } else if snapshot.screenshot != nil {
            // A screenshot runs the part of text.truncated the pixels alone judge: a drawn
            // ellipsis, in any script.
            ruleSet = ruleSet.including([TextTruncatedRule.self])
        }
        return ruleSet
    }

    /// `rules` and `findings`: the rule set run over the snapshot, which is let go when this
    /// returns. What the screen reader says is taken first, for the journal (build over
    /// build, a changed digest says the screen sounds different). Only XPath rules read
    /// the source again: without them it is let go before the rules run. A finding-heavy
    /// screen's written findings past a size wait on disk while the model is held.
    mutating func audit(_ snapshot: consuming Snapshot, source: inout [UInt8]) throws(Refusal) -> (AuditReport, Transcript.Summary) {
        let ruleSet = try ruleSet(for: snapshot)
        if ruleSet.customRules.isEmpty { source = [] }
        let spoken = Transcript.Summary(Transcript.of(snapshot), speechLimit: AuditJournalEntry.maxTranscriptStops)
        let spillAfter = service.settings.spillFindingsAfterBytes
        let spill = spillAfter > 0 ? Auditor.Spill(file: SpillFile(directory: service.spillDirectory), afterBytes: spillAfter) : nil
        self.spill = spill
        let budget = self.budget
        let report = source.withUnsafeBytes { Auditor.audit(snapshot, ruleSet: ruleSet, source: $0, budget: budget, spill: spill) }
        timing.add(.rules, milliseconds: report.durationMilliseconds - report.findingsMilliseconds)
        timing.add(.findings, milliseconds: report.findingsMilliseconds)
        source = []
        return (report, spoken)
    }

    /// `render`: the answer's and the journal's bytes, one rendering for both, on the
    /// worker (waiting for the journal's sync needs no CPU, and concurrent audits share one
    /// sync). The report is let go when ``written(_:spoken:sourceBytes:)`` returns, before
    /// what was spilled is read back: the two are never held together.
    mutating func render(_ report: consuming AuditReport, spoken: Transcript.Summary, sourceBytes: Int) throws(Refusal) -> Audited {
        let renderStarted = Timestamp.monotonic()
        var audited = written(report, spoken: spoken, sourceBytes: sourceBytes)
        do throws(SpillError) {
            if let spill, spill.file.byteCount > 0 { service.metrics.findingsSpilled(bytes: spill.file.byteCount) }
            try audited.entry.readSpilled()
        } catch {
            throw Refusal(
                response: .error(
                    507, code: "spill-read-failed", message: "the findings could not be read back: \(error.description)",
                    hint: "check the disk under the journal's directory; auditd recovers by itself"))
        }
        timing.add(.render, from: renderStarted, to: Timestamp.monotonic())
        return audited
    }

    /// What the answer and the journal need of `report`, which ends with this call.
    private func written(_ report: consuming AuditReport, spoken: Transcript.Summary, sourceBytes: Int) -> Audited {
        let counts = Metrics.findingCounts(report)
        let ranOut = AuditBudget.ranOut(in: report)
        let identity = (app: report.app, build: report.build, screen: report.screen)
        let rendered = report.rendered()
        return Audited(
            entry: AuditJournalEntry(report, rendered: rendered, transcript: spoken), findingCounts: counts, ranOutOfBudget: ranOut,
            identity: identity, sourceBytes: sourceBytes)
    }

    // MARK: In order

    /// The stages in order, from the capture's bytes (and the screenshot's) to what the
    /// answer and the journal need.
    mutating func run(source: consuming [UInt8], screenshot: consuming [UInt8]?) -> Outcome {
        var source = consume source
        let sourceBytes = source.count
        do throws(Refusal) {
            var snapshot = try parse(source)
            if let image = consume screenshot { snapshot = try attach(image, to: snapshot) }
            snapshot = recognize(snapshot)
            let (report, spoken) = try audit(consume snapshot, source: &source)
            if budget.isCancelled { return .abandoned }
            return .report(try render(consume report, spoken: spoken, sourceBytes: sourceBytes))
        } catch {
            return .failure(error.response)
        }
    }
}
