import Dispatch

/// Runs a rule set over one snapshot: every rule concurrently over the same read-only
/// model, then suppressions, ordering and fingerprints. Output does not depend on
/// scheduling: findings are sorted by document order, then rule id, then the order the
/// rule reported them.
public enum Auditor {
    /// Below this many elements the rules run on the calling thread.
    public static let parallelThreshold = 2_000

    /// What one job (one rule, or all XPath rules) leaves behind.
    struct JobResult {
        var findings: [Finding] = []
        var incompletes: [Incomplete] = []
    }

    /// How long each rule took last time, longest first next time: with more rules than
    /// cores, starting the slow ones first keeps a slow rule from running alone at the end.
    static let ruleCosts = RuleCosts()

    /// Where an audit puts the findings it writes past a size (``SpillFile``), so that a
    /// finding-heavy screen's written findings and its model are not held whole together:
    /// the report reads them back once the model is let go (``RenderedReport/readSpilled()``).
    public struct Spill: Sendable {
        public var file: SpillFile
        /// Runs of findings written once this many bytes are held are spilled.
        public var afterBytes: Int

        public init(file: SpillFile, afterBytes: Int) {
            self.file = file
            self.afterBytes = afterBytes
        }
    }

    /// Audits `snapshot` with `ruleSet`. `source` is the snapshot's XML, needed only when
    /// the set has XPath rules. With `spill`, findings written past its size are put in its
    /// file rather than held (the report's first run never is).
    /// `budget` bounds the rules' time: a rule it stops, or never lets start, is reported
    /// incomplete with the reason.
    /// Afterwards the snapshot's memo keeps only the element identities: a transcript
    /// wanted after the audit is made again, so take what is needed of it before (as the
    /// daemon takes ``Transcript/Summary``).
    public static func audit(
        _ snapshot: Snapshot, ruleSet: RuleSet, source: UnsafeRawBufferPointer? = nil,
        concurrent: Bool = true, budget: AuditBudget = .unlimited,
        xpathLimits: XPathLimits = XPathLimits(), spill: Spill? = nil
    ) -> AuditReport {
        let started = DispatchTime.now().uptimeNanoseconds
        let entries = ruleSet.entries
        let jobs = entries.count + (ruleSet.customRules.isEmpty ? 0 : 1)
        let results = ResultSlots<JobResult>(count: jobs)
        // The DOM costs about 20 times the document's bytes: above the limit, XPath rules
        // are reported incomplete instead of built for.
        let sourceBytes = source?.count ?? 0
        let sourceIsXML =
            source.map { bytes in
                bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0xFE || $0 == 0xFF || $0 == 0) }
                    == UInt8(ascii: "<")
            } ?? true
        let xpathTooLarge = !ruleSet.customRules.isEmpty && sourceBytes > xpathLimits.maxDocumentBytes
        let xpathDocument: XPathDocument? =
            ruleSet.customRules.isEmpty || xpathTooLarge || budget.isExhausted
            ? nil
            : source.flatMap {
                XPathDocument(bytes: $0, dialect: snapshot.dialect)
            }
        // Rules run side by side on large snapshots, and on any with a screenshot: reading
        // colours from pixels is most of such an audit (the two contrast rules, in parallel).
        let parallel = concurrent && (snapshot.elements.count >= parallelThreshold || snapshot.screenshot != nil)
        // Phase 1: the rules, concurrently, slowest first — and first of all (-1) the
        // element identities the findings' fingerprints are made from: built beside the
        // rules, not by the first finding rendered while the other threads wait for it.
        let startOrder = parallel ? [-1] + ruleCosts.order(entries.map(\.id)) + Array(entries.count..<jobs) : Array(0..<jobs)
        let work: @Sendable (Int) -> Void = { slot in
            let job = startOrder[slot]
            if job < 0 {
                if !budget.isExhausted { Fingerprint.prepare(snapshot) }
            } else if job < entries.count {
                let entry = entries[job]
                if budget.isExhausted {
                    results.store(job, JobResult(incompletes: [Incomplete(ruleID: entry.id, reason: budget.reason(started: false), element: nil)]))
                    return
                }
                let start = DispatchTime.now().uptimeNanoseconds
                let run = entry.rule.run(on: snapshot, severity: entry.severity, parameters: entry.parameters, budget: budget)
                var incompletes = run.incompletes
                if run.stoppedEarly {
                    incompletes.append(Incomplete(ruleID: entry.id, reason: budget.reason(started: true), element: nil))
                }
                results.store(job, JobResult(findings: run.findings, incompletes: incompletes))
                if parallel { ruleCosts.record(entry.id, nanoseconds: DispatchTime.now().uptimeNanoseconds - start) }
            } else {
                if xpathTooLarge {
                    let reason = "the snapshot (\(sourceBytes) bytes) is larger than the \(xpathLimits.maxDocumentBytes) bytes XPath rules are evaluated on"
                    results.store(job, JobResult(incompletes: ruleSet.customRules.map { Incomplete(ruleID: $0.id, reason: reason, element: nil) }))
                    return
                }
                // XPath reads XML: a capture in another syntax (Flutter's text dump) is not one.
                if !sourceIsXML {
                    let reason = "XPath rules read XML captures, and this one is not XML: the expression was not evaluated"
                    results.store(job, JobResult(incompletes: ruleSet.customRules.map { Incomplete(ruleID: $0.id, reason: reason, element: nil) }))
                    return
                }
                let (findings, incompletes) = evaluateXPath(
                    ruleSet.customRules, document: xpathDocument, snapshot: snapshot,
                    budget: budget, limits: xpathLimits)
                results.store(job, JobResult(findings: findings, incompletes: incompletes))
            }
        }
        // Small snapshots audit faster on one thread than split across cores (and leave the
        // other cores to concurrent audits).
        if parallel, jobs > 1 {
            DispatchQueue.concurrentPerform(iterations: startOrder.count, execute: work)
        } else {
            for slot in startOrder.indices { work(slot) }
        }
        // What the rules derived for themselves (the transcript, the targets) is let go
        // before their findings are written: writing needs only the element identities.
        Fingerprint.releaseAllButIdentities(of: snapshot)
        let rulesDone = DispatchTime.now().uptimeNanoseconds

        // Order: document order, then rule id, then the order the rule reported them. Rule
        // ids are ranked once and findings stay in their jobs' arrays: the sort moves
        // small integer keys only.
        // Entries are sorted by id: with no custom rule among them, an entry's place is its rank.
        let ruleRank = ruleSet.customRules.isEmpty ? nil : Self.ruleRanks(ruleSet)
        var jobFindings: [[Finding]] = []
        var keys: [FindingKey] = []
        var incompletes: [Incomplete] = []
        var leftOut = 0, leftCovered = 0
        for job in 0..<jobs {
            let result = results.take(job)
            let jobRank = job < entries.count ? (ruleRank.map { $0[entries[job].id] ?? Int.max } ?? job) : nil
            // Read in place: copying each finding out costs a retain and release per field.
            for position in result.findings.indices {
                // What is not the app's — the system's bars and keyboard, another app's
                // window — is no rule's to judge, whichever rule reported it.
                if let element = result.findings[position].element {
                    if snapshot.elements[element].isSystemUI {
                        leftOut += 1
                        continue
                    }
                    // Painted over by a page above it: nobody sees or reaches it.
                    if snapshot.elements[element].covered {
                        leftCovered += 1
                        continue
                    }
                }
                let rank = jobRank ?? ruleRank?[result.findings[position].ruleID] ?? Int.max
                keys.append(
                    FindingKey(
                        element: Int32(truncatingIfNeeded: result.findings[position].element ?? -1),
                        rule: Int32(clamping: rank), job: Int32(job), position: Int32(truncatingIfNeeded: position)))
            }
            jobFindings.append(result.findings)
            incompletes += result.incompletes
        }
        keys.sort()
        let reportOrder = keys
        keys.removeAll()
        let sources = jobFindings
        jobFindings.removeAll()

        // Phase 2: suppress, place and render every finding, in parallel chunks of the
        // final order; each chunk's fields share one buffer.
        let anyIgnored = snapshot.elements.contains { !$0.ignoredRules.isAbsent }
        let ignored = anyIgnored ? ElementSuppressions(snapshot) : nil
        let chunk = 256
        let chunks = (reportOrder.count + chunk - 1) / chunk
        let placed = ResultSlots<(rendered: AuditReport.RenderedFindings, suppressed: [String])>(count: chunks)
        // Most audits suppress nothing: then no finding is asked.
        let mayBeSuppressed = ignored != nil || !ruleSet.suppressions.isEmpty
        // Bytes of written findings held so far, for the spill.
        let held = Locked(0)
        let slots = PlacedFindings.array(count: reportOrder.count, chunkSize: chunk) { located in
            // Each chunk writes into a buffer an earlier chunk left behind, already grown to a
            // chunk's size and in memory: a fresh one a chunk was grown (copied) once or twice
            // on screens of long findings, and its pages were faulted in again every time.
            // They are let go with the placing.
            let buffers = Locked<[ByteBuffer]>([])
            let place: @Sendable (Int) -> Void = { part in
                let buffer = buffers.withValue { $0.popLast() } ?? ByteBuffer(capacity: chunk * 512)
                defer {
                    buffer.removeAll()
                    buffers.withValue { $0.append(buffer) }
                }
                var rendered = ReportWriter.Output(bytes: buffer)
                var fields: [Range<Int>] = []
                fields.reserveCapacity(min(chunk, reportOrder.count - part * chunk))
                var suppressed: [String] = []
                for key in reportOrder[part * chunk..<min(reportOrder.count, (part + 1) * chunk)] {
                    // Read in place, never copied: a copy costs a retain and a release per field.
                    let job = Int(key.job), position = Int(key.position)
                    if mayBeSuppressed, isSuppressed(sources[job][position], snapshot: snapshot, ruleSet: ruleSet, ignored: ignored) {
                        suppressed.append(sources[job][position].ruleID)
                        continue
                    }
                    // A comma before every finding but the report's first: runs joined end to
                    // end are the findings array (a run after an empty first one starts with a
                    // comma the report's writer drops).
                    rendered.raw(part == 0 && fields.isEmpty ? "{" : ",{")
                    let start = rendered.bytes.count
                    let identity = ReportWriter.writeFields(of: sources[job][position], in: snapshot, to: &rendered)
                    located.store(
                        AuditFindings.Slot(job: key.job, position: key.position, fingerprint: identity.fingerprint, defect: identity.defect),
                        part: part, offset: fields.count)
                    fields.append(start..<rendered.bytes.count)
                    rendered.raw("}")
                }
                // Past the spill's size, the run goes to its file instead of a fresh array (kept
                // when the file cannot take it).
                func spilled() -> AuditReport.RenderedFindings? {
                    let count = rendered.bytes.count
                    guard let spill, part > 0, count > 0 else { return nil }
                    let total = held.withValue { total in
                        total += count
                        return total
                    }
                    guard total > spill.afterBytes, let extent = buffer.withUnsafeBytes({ spill.file.append($0) }) else { return nil }
                    return AuditReport.RenderedFindings(spilled: extent, fields: fields)
                }
                placed.store(part, (spilled() ?? AuditReport.RenderedFindings(bytes: rendered.bytes.bytes(), fields: fields), suppressed))
            }
            if parallel, chunks > 1 {
                DispatchQueue.concurrentPerform(iterations: chunks, execute: place)
            } else {
                for part in 0..<chunks { place(part) }
            }
        }
        var renderedFindings: [AuditReport.RenderedFindings] = []
        var suppressed: [String: Int] = [:]
        for part in 0..<chunks {
            let result = placed.take(part)
            if !result.rendered.fields.isEmpty { renderedFindings.append(result.rendered) }
            for rule in result.suppressed { suppressed[rule, default: 0] += 1 }
        }
        incompletes.sort { ($0.element ?? -1, $0.ruleID, $0.reason) < ($1.element ?? -1, $1.ruleID, $1.reason) }

        let locatedIncompletes = incompletes.map { incomplete in
            AuditReport.LocatedIncomplete(
                incomplete: incomplete,
                elementID: incomplete.element.flatMap { snapshot.node($0).id },
                path: incomplete.element.map { snapshot.path(of: $0) },
                line: incomplete.element.map { Int(snapshot.elements[$0].line) })
        }
        let findings = AuditFindings(sources: sources, slots: slots, snapshot: snapshot)
        let finished = DispatchTime.now().uptimeNanoseconds
        let elapsed = Double(finished - started) / 1e6
        return AuditReport(
            id: AuditID.make(), app: snapshot.app, build: snapshot.build, screen: snapshot.screen,
            platform: snapshot.platform, dialect: snapshot.dialect, elementCount: snapshot.elements.count,
            ruleSet: ruleSet.name, durationMilliseconds: elapsed, findingsMilliseconds: Double(finished - rulesDone) / 1e6, findings: findings,
            incomplete: locatedIncompletes, suppressed: suppressed,
            notes: snapshot.notes + (leftOut > 0 ? ["\(leftOut) findings on the system's UI or another app's window left out: not the app's"] : [])
                + (leftCovered > 0 ? ["\(leftCovered) findings on covered content left out: painted over, nobody sees or reaches it"] : []),
            renderedFindings: renderedFindings)
    }

    /// The position of every rule id of the set in sorted order.
    static func ruleRanks(_ ruleSet: RuleSet) -> [String: Int] {
        let ids = (ruleSet.entries.map(\.id) + ruleSet.customRules.map(\.id)).sorted()
        var ranks: [String: Int] = [:]
        for (rank, id) in ids.enumerated() where ranks[id] == nil { ranks[id] = rank }
        return ranks
    }

    static func isSuppressed(_ finding: Finding, snapshot: Snapshot, ruleSet: RuleSet, ignored: ElementSuppressions?) -> Bool {
        if let ignored, let index = finding.element, ignored.suppresses(finding.ruleID, at: index) { return true }
        guard !ruleSet.suppressions.isEmpty else { return false }
        let elementID = finding.element.flatMap { snapshot.node($0).id }
        return ruleSet.suppressions.contains { $0.matches(ruleID: finding.ruleID, elementID: elementID, screen: snapshot.screen) }
    }

    static func evaluateXPath(
        _ rules: [XPathRule], document: XPathDocument?, snapshot: Snapshot, budget: AuditBudget,
        limits: XPathLimits
    ) -> ([Finding], [Incomplete]) {
        var findings: [Finding] = []
        var incompletes: [Incomplete] = []
        for rule in rules {
            if budget.isExhausted {
                incompletes.append(Incomplete(ruleID: rule.id, reason: budget.reason(started: false), element: nil))
                continue
            }
            guard let document else {
                incompletes.append(Incomplete(ruleID: rule.id, reason: "the XPath expression could not be evaluated on this snapshot", element: nil))
                continue
            }
            let selected: [Int]
            switch document.select(rule.expression, limits: limits) {
            case .selected(let indexes): selected = indexes
            case .mergeLimit(let comparisons):
                incompletes.append(
                    Incomplete(
                        ruleID: rule.id,
                        reason:
                            "the XPath expression steps along following, preceding or a sibling axis from every node of a set; merging the results on this snapshot (\(document.shape.elements) elements) would take about \(Int(min(comparisons, 1e18))) node comparisons, over the limit of \(limits.maxMergeComparisons); take one position (following::x[1]) or test in a predicate (//x[following::y])",
                        element: nil))
                continue
            case .operationLimit:
                incompletes.append(
                    Incomplete(
                        ruleID: rule.id,
                        reason:
                            "the XPath expression took more than \(limits.maxOperations) evaluation steps on this snapshot (the limit); simplify it, e.g. avoid comparing every element with every other",
                        element: nil))
                continue
            case .failed:
                incompletes.append(Incomplete(ruleID: rule.id, reason: "the XPath expression could not be evaluated on this snapshot", element: nil))
                continue
            }
            // The rule's findings share one kind and one copy of their evidence.
            let kind = FindingKind(ruleID: rule.id, resultID: "matched", severity: rule.severity, wcag: rule.wcag, messageSource: .literal(rule.message))
            let store = EvidenceStore(capacity: 64)
            let evidence = store.append([(.xpath, .string(rule.expression))])
            for index in selected where index < snapshot.elements.count {
                findings.append(Finding(kind: kind, element: index, evidence: evidence, in: store))
            }
        }
        return (findings, incompletes)
    }
}

/// Where a finding goes in the report: its element (document order), its rule's rank
/// (rule id order), then the order its job reported it.
struct FindingKey: Comparable {
    var element: Int32
    var rule: Int32
    var job: Int32
    var position: Int32

    static func < (lhs: FindingKey, rhs: FindingKey) -> Bool {
        (lhs.element, lhs.rule, lhs.job, lhs.position) < (rhs.element, rhs.rule, rhs.job, rhs.position)
    }
}

/// The last measured duration of each rule, shared by every audit (the daemon's and the
/// benchmark's); only the order in which rules start depends on it, never the output.
final class RuleCosts: @unchecked Sendable {
    private var nanoseconds: [String: UInt64] = [:]
    private let lock = Lock()

    func record(_ id: String, nanoseconds value: UInt64) {
        lock.withLock { nanoseconds[id] = value }
    }

    /// Job indexes of `ids`, slowest known first; unknown rules keep their place after them.
    func order(_ ids: [String]) -> [Int] {
        let known = lock.withLock { nanoseconds }
        return ids.indices.sorted { (known[ids[$0]] ?? 0, $1) > (known[ids[$1]] ?? 0, $0) }
    }
}
