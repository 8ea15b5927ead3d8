import Dispatch

/// Runs a rule set over one snapshot: every rule concurrently over the same read-only
/// model, then suppressions, ordering and fingerprints. Output does not depend on
/// scheduling: findings are sorted by document order, then rule id, then the order the
/// rule reported them.
public enum Auditor {
    /// Below this many elements the rules run on the calling thread.
    public static let parallelThreshold = 2_000

    /// Audits `snapshot` with `ruleSet`. `source` is the snapshot's XML, needed only when
    /// the set has XPath rules.
    public static func audit(_ snapshot: Snapshot, ruleSet: RuleSet, source: UnsafeRawBufferPointer? = nil,
                             concurrent: Bool = true) -> AuditReport {
        let started = DispatchTime.now().uptimeNanoseconds
        let entries = ruleSet.entries
        let jobs = entries.count + (ruleSet.customRules.isEmpty ? 0 : 1)
        let results = ResultSlots(count: jobs)
        let xpathDocument: XPathDocument? = ruleSet.customRules.isEmpty ? nil : source.flatMap {
            XPathDocument(bytes: $0, dialect: snapshot.dialect)
        }
        let work: @Sendable (Int) -> Void = { job in
            if job < entries.count {
                let entry = entries[job]
                var context = RuleContext(snapshot: snapshot, description: entry.rule.description,
                                          severity: entry.severity, parameters: entry.parameters)
                entry.rule.evaluate(&context)
                results.store(job, (context.findings, context.incompletes))
            } else {
                results.store(job, evaluateXPath(ruleSet.customRules, document: xpathDocument, snapshot: snapshot))
            }
        }
        // Small snapshots audit faster on one thread than split across cores (and leave the
        // other cores to concurrent audits).
        if concurrent, jobs > 1, snapshot.elements.count >= parallelThreshold {
            DispatchQueue.concurrentPerform(iterations: jobs, execute: work)
        } else {
            for job in 0..<jobs { work(job) }
        }

        // Order: document order, then rule id, then the order the rule reported them. Rule
        // ids are ranked once, so the sort compares integers and moves no findings.
        let ruleRank = Self.ruleRanks(ruleSet)
        var all: [Finding] = []
        var keys: [(element: Int, rule: Int, order: Int)] = []
        var incompletes: [Incomplete] = []
        var suppressed: [String: Int] = [:]
        for job in 0..<jobs {
            let (jobFindings, jobIncompletes) = results.take(job)
            for finding in jobFindings {
                if isSuppressed(finding, snapshot: snapshot, ruleSet: ruleSet) {
                    suppressed[finding.ruleID, default: 0] += 1
                } else {
                    keys.append((finding.element ?? -1, ruleRank[finding.ruleID] ?? Int.max, all.count))
                    all.append(finding)
                }
            }
            incompletes += jobIncompletes
        }
        keys.sort { ($0.element, $0.rule, $0.order) < ($1.element, $1.rule, $1.order) }
        let findings = keys.map { all[$0.order] }
        all.removeAll()
        incompletes.sort { ($0.element ?? -1, $0.ruleID, $0.reason) < ($1.element ?? -1, $1.ruleID, $1.reason) }

        let located = locateAll(findings, in: snapshot, concurrent: concurrent)
        let locatedIncompletes = incompletes.map { incomplete in
            AuditReport.LocatedIncomplete(
                incomplete: incomplete,
                elementID: incomplete.element.flatMap { snapshot.node($0).id },
                path: incomplete.element.map { snapshot.path(of: $0) },
                line: incomplete.element.map { Int(snapshot.elements[$0].line) })
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        return AuditReport(id: AuditID.make(), app: snapshot.app, build: snapshot.build, screen: snapshot.screen,
                           platform: snapshot.platform, dialect: snapshot.dialect, elementCount: snapshot.elements.count,
                           ruleSet: ruleSet.name, durationMilliseconds: elapsed, findings: located,
                           incomplete: locatedIncompletes, suppressed: suppressed)
    }

    /// The position of every rule id of the set in sorted order.
    static func ruleRanks(_ ruleSet: RuleSet) -> [String: Int] {
        let ids = (ruleSet.entries.map(\.id) + ruleSet.customRules.map(\.id)).sorted()
        var ranks: [String: Int] = [:]
        for (rank, id) in ids.enumerated() where ranks[id] == nil { ranks[id] = rank }
        return ranks
    }

    /// Places every finding (path, line, frame, fingerprint); in parallel chunks when there
    /// are many, since each finding is independent.
    static func locateAll(_ findings: [Finding], in snapshot: Snapshot, concurrent: Bool) -> [AuditReport.Located] {
        let chunk = 512
        guard concurrent, findings.count > chunk * 2, snapshot.elements.count >= parallelThreshold else { return findings.map { locate($0, in: snapshot) } }
        let chunks = (findings.count + chunk - 1) / chunk
        let parts = LocatedSlots(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { part in
            let range = part * chunk..<min(findings.count, (part + 1) * chunk)
            parts.store(part, findings[range].map { locate($0, in: snapshot) })
        }
        return parts.joined()
    }

    static func locate(_ finding: Finding, in snapshot: Snapshot) -> AuditReport.Located {
        guard let index = finding.element else {
            let line = finding.evidence("line")?.intValue
            return AuditReport.Located(finding: finding, elementID: nil, path: nil, line: line, column: nil, frame: nil,
                                       fingerprint: Fingerprint.of(finding, in: snapshot))
        }
        let element = snapshot.elements[index]
        let path = snapshot.path(of: index)
        return AuditReport.Located(finding: finding, elementID: snapshot.text(element.id), path: path, line: Int(element.line),
                                   column: Int(element.column), frame: element.frame,
                                   fingerprint: Fingerprint.of(finding, in: snapshot, path: path))
    }

    static func isSuppressed(_ finding: Finding, snapshot: Snapshot, ruleSet: RuleSet) -> Bool {
        if let index = finding.element {
            for pattern in snapshot.suppressions(of: index) where Glob(pattern).matches(finding.ruleID) {
                return true
            }
        }
        guard !ruleSet.suppressions.isEmpty else { return false }
        let elementID = finding.element.flatMap { snapshot.node($0).id }
        return ruleSet.suppressions.contains { $0.matches(ruleID: finding.ruleID, elementID: elementID, screen: snapshot.screen) }
    }

    static func evaluateXPath(_ rules: [XPathRule], document: XPathDocument?, snapshot: Snapshot) -> ([Finding], [Incomplete]) {
        var findings: [Finding] = []
        var incompletes: [Incomplete] = []
        for rule in rules {
            guard let document, let selected = document.select(rule.expression) else {
                incompletes.append(Incomplete(ruleID: rule.id, reason: "the XPath expression could not be evaluated on this snapshot", element: nil))
                continue
            }
            for index in selected where index < snapshot.elements.count {
                findings.append(Finding(ruleID: rule.id, resultID: "matched", severity: rule.severity, wcag: rule.wcag,
                                        element: index, evidence: [("xpath", .string(rule.expression))], message: rule.message))
            }
        }
        return (findings, incompletes)
    }
}

/// One slot per concurrent job; each job writes only its own slot, and the slots are
/// read after `concurrentPerform` returns.
final class ResultSlots: @unchecked Sendable {
    private var slots: [([Finding], [Incomplete])]
    private let lock = Lock()

    init(count: Int) { slots = Array(repeating: ([], []), count: count) }

    func store(_ index: Int, _ value: ([Finding], [Incomplete])) {
        lock.withLock { slots[index] = value }
    }

    func take(_ index: Int) -> ([Finding], [Incomplete]) {
        lock.withLock { slots[index] }
    }
}

/// Chunks of located findings written by concurrent jobs, one slot each.
final class LocatedSlots: @unchecked Sendable {
    private var slots: [[AuditReport.Located]]
    private let lock = Lock()

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func store(_ index: Int, _ value: [AuditReport.Located]) { lock.withLock { slots[index] = value } }

    func joined() -> [AuditReport.Located] { lock.withLock { slots.flatMap { $0 } } }
}
