/// Every kept finding of an audit, in report order (document order, then rule id, then
/// the order the rule reported them), each read as an ``AuditReport/Located`` when asked
/// for.
///
/// The findings stay in the arrays their rules reported them in, held once; the report's
/// order is a list of small slots (where a finding is, its fingerprint and defect). A
/// report that stored a placed copy of each finding held every finding twice at its peak
/// (about 120 bytes more per finding, 12 MB at 100,000) and paid a retain and a release
/// per field to make and drop each copy.
public struct AuditFindings: RandomAccessCollection, Sendable {
    /// Where one finding of the report is, and its identity.
    package struct Slot: Sendable {
        /// Which job's array, and where in it.
        package var job: Int32
        package var position: Int32
        package var fingerprint: UInt64
        package var defect: UInt64

        package init(job: Int32, position: Int32, fingerprint: UInt64, defect: UInt64) {
            self.job = job
            self.position = position
            self.fingerprint = fingerprint
            self.defect = defect
        }
    }

    /// The findings as the rules reported them, one array per job; some are not in the
    /// report (left out or suppressed) and are never read.
    let sources: [[Finding]]
    let slots: [Slot]
    let snapshot: Snapshot

    /// The findings `slots` points into, in report order; `snapshot` is theirs.
    package init(sources: [[Finding]], slots: [Slot], snapshot: Snapshot) {
        self.sources = sources
        self.slots = slots
        self.snapshot = snapshot
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { slots.count }

    /// Finding `index`, placed in its snapshot (a copy of the finding: reading one field of
    /// many findings is cheaper through ``ruleID(at:)``, ``severity(at:)``).
    public subscript(index: Int) -> AuditReport.Located {
        let slot = slots[index]
        return AuditReport.Located(
            finding: sources[Int(slot.job)][Int(slot.position)], snapshot: snapshot, fingerprint: slot.fingerprint,
            defect: slot.defect)
    }

    /// The rule of finding `index`, read in place.
    public func ruleID(at index: Int) -> String {
        let slot = slots[index]
        return sources[Int(slot.job)][Int(slot.position)].ruleID
    }

    /// The severity of finding `index`, read in place.
    public func severity(at index: Int) -> Severity {
        let slot = slots[index]
        return sources[Int(slot.job)][Int(slot.position)].severity
    }

    /// The defect of finding `index` (``AuditReport/Located/defect``, as a number).
    package func defectValue(at index: Int) -> UInt64 { slots[index].defect }

    /// How many distinct defects the findings are instances of.
    public var defectCount: Int {
        var defects = Set<UInt64>(minimumCapacity: slots.count)
        for slot in slots { defects.insert(slot.defect) }
        return defects.count
    }

    /// How many findings have `severity`.
    public func count(_ severity: Severity) -> Int {
        var total = 0
        for index in slots.indices where self.severity(at: index) == severity { total += 1 }
        return total
    }
}
