/// The report (docs/findings.md), written straight from an ``AuditReport`` to bytes — no `JSON`
/// tree in between (building one cost more than the rules on finding-heavy screens).
/// It also records where each finding's fields lie, so the journal's `finding` records
/// reuse the same bytes instead of rendering every finding a second time.
public struct RenderedReport: Sendable {
    /// Where a finding's fields are: a piece, and the range of its bytes.
    public struct Location: Sendable, Equatable {
        public var piece: Int
        public var range: Range<Int>
    }

    /// The report in pieces, in order: once joined, one line of JSON and a newline (as the
    /// daemon sends it). A report with less than ``ReportWriter/segmentingFrom`` bytes of
    /// findings is one piece; a larger one keeps the runs of findings the audit's workers
    /// wrote as pieces of their own rather than copying them into one buffer — the answer
    /// and the journal write pieces as they are (at 100,000 findings the copy held 37 MB
    /// more at the daemon's peak).
    public var pieces: [[UInt8]]
    /// For each finding, in report order, where its fields are (`"rule":…,"fingerprint":"…"`,
    /// without the braces).
    public var findingFields: [Location]
    /// The range of the first piece holding the `summary` object, braces included.
    public var summary: Range<Int>
    /// Pieces the audit spilled to disk (``AuditReport/RenderedFindings``), empty in
    /// ``pieces`` until ``readSpilled()`` puts them back: read once the snapshot and its
    /// findings are let go, so the two are never held together.
    var spilled: [(piece: Int, extent: SpillFile.Extent)] = []

    init(pieces: [[UInt8]], findingFields: [Location], summary: Range<Int>, spilled: [(piece: Int, extent: SpillFile.Extent)] = []) {
        self.pieces = pieces
        self.findingFields = findingFields
        self.summary = summary
        self.spilled = spilled
    }

    /// Whether some pieces are still on disk (``readSpilled()``).
    public var hasSpilledPieces: Bool { !spilled.isEmpty }

    /// Reads the spilled pieces back into ``pieces``; every other use of a report's bytes
    /// needs them read.
    public mutating func readSpilled() throws(SpillError) {
        for item in spilled { pieces[item.piece] = try item.extent.read() }
        spilled = []
    }

    /// The report's size in bytes.
    public var count: Int { pieces.reduce(0) { $0 + $1.count } }

    /// The report as one buffer: a copy when it is in several pieces (for tests and tools),
    /// made piece by piece (joining them as a sequence copied byte by byte).
    public var bytes: [UInt8] {
        guard pieces.count != 1 else { return pieces[0] }
        var joined: [UInt8] = []
        joined.reserveCapacity(count)
        for piece in pieces { joined.append(contentsOf: piece) }
        return joined
    }

    /// The summary object's bytes.
    public var summaryBytes: ArraySlice<UInt8> { pieces[0][summary] }

    /// The fields of finding `index`.
    public func fields(ofFinding index: Int) -> ArraySlice<UInt8> {
        let location = findingFields[index]
        return pieces[location.piece][location.range]
    }

    /// Calls `body` with the bytes of every piece, in order.
    public func withPieceBytes<Result>(_ body: ([UnsafeRawBufferPointer]) -> Result) -> Result {
        var pointers: [UnsafeRawBufferPointer] = []
        pointers.reserveCapacity(pieces.count)
        func lend(_ index: Int) -> Result {
            guard index < pieces.count else { return body(pointers) }
            return pieces[index].withUnsafeBytes { bytes in
                pointers.append(bytes)
                return lend(index + 1)
            }
        }
        return lend(0)
    }
}

/// Writes reports as compact JSON (docs/findings.md): the only serialisation of a report;
/// ``AuditReport/json`` reads these bytes back.
public enum ReportWriter {
    /// Findings of this many bytes or more are sent as the runs the audit wrote, not copied
    /// into one buffer (``RenderedReport/pieces``).
    public static let segmentingFrom = 1 << 20

    /// Renders `report`; runs of findings from `segmentingFrom` bytes on stay pieces of
    /// their own.
    public static func render(_ report: AuditReport, segmentingFrom: Int = segmentingFrom) -> RenderedReport {
        var out = Output(bytes: [UInt8]())
        let runs = report.renderedFindings
        let fromRuns = runs.reduce(0, { $0 + $1.fields.count }) == report.findings.count
        let runBytes = runs.reduce(0) { $0 + $1.byteCount }
        // Runs after the first stay where the audit wrote them when they are large, or
        // when it spilled them (never the first).
        let segmented = fromRuns && runs.count > 1 && (runBytes >= segmentingFrom || runs.contains { $0.spilled != nil })
        // Sized up front from the runs the audit wrote: a buffer that grows copies itself
        // into fresh pages each time, and on large reports the page faults cost more than
        // the copying.
        out.bytes.reserveCapacity(
            1024 + (segmented ? runs[0].bytes.count : max(runBytes, report.findings.count * 420)) + report.incomplete.count * 256
                + report.suppressed.count * 64)
        HugePages.advise(capacityOf: &out.bytes)
        out.raw("{")
        out.key("audit"); out.string(report.id)
        out.comma(); out.key("snapshot"); out.raw("{")
        out.key("app"); out.optional(report.app)
        out.comma(); out.key("build"); out.optional(report.build)
        out.comma(); out.key("screen"); out.optional(report.screen)
        out.comma(); out.key("platform"); out.string(report.platform.rawValue)
        out.comma(); out.key("dialect"); out.string(report.dialect.rawValue)
        out.comma(); out.key("elements"); out.int(report.elementCount)
        if !report.notes.isEmpty {
            out.comma(); out.key("notes"); out.raw("[")
            for (position, note) in report.notes.enumerated() {
                if position > 0 { out.comma() }
                out.string(note)
            }
            out.raw("]")
        }
        out.raw("}")
        out.comma(); out.key("ruleset"); out.string(report.ruleSet)
        out.comma(); out.key("duration_ms"); out.number(report.roundedDuration)
        out.comma(); out.key("fingerprint_version"); out.int(Fingerprint.version)
        out.comma(); out.key("summary")
        let summaryStart = out.bytes.count
        var counts = (error: 0, warning: 0, notice: 0)
        for index in report.findings.indices {
            switch report.findings.severity(at: index) {
            case .error: counts.error += 1
            case .warning: counts.warning += 1
            case .notice: counts.notice += 1
            }
        }
        out.raw("{")
        out.key("error"); out.int(counts.error)
        out.comma(); out.key("warning"); out.int(counts.warning)
        out.comma(); out.key("notice"); out.int(counts.notice)
        out.comma(); out.key("incomplete"); out.int(report.incomplete.count)
        out.comma(); out.key("suppressed"); out.int(report.suppressedTotal)
        out.comma(); out.key("defects"); out.int(report.findings.defectCount)
        out.raw("}")
        let summary = summaryStart..<out.bytes.count

        out.comma(); out.key("findings"); out.raw("[")
        var findingFields: [RenderedReport.Location] = []
        findingFields.reserveCapacity(report.findings.count)
        var pieces: [[UInt8]] = []
        var spilled: [(piece: Int, extent: SpillFile.Extent)] = []
        if fromRuns {
            // Written by the audit already, in order, each run but the report's first
            // starting with a comma: copied whole, or past the first left as pieces.
            for (offset, run) in runs.enumerated() {
                if segmented, offset > 0 {
                    if offset == 1 { pieces.append(out.bytes) }
                    for range in run.fields { findingFields.append(.init(piece: offset, range: range)) }
                    if let extent = run.spilled { spilled.append((offset, extent)) }
                    pieces.append(run.bytes)
                    continue
                }
                // The first run's comma, when the report's first chunk was all suppressed.
                let skip = offset == 0 && run.bytes.first == UInt8(ascii: ",") ? 1 : 0
                let base = out.bytes.count - skip
                run.bytes.withUnsafeBytes { out.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[skip...])) }
                for range in run.fields { findingFields.append(.init(piece: 0, range: (range.lowerBound + base)..<(range.upperBound + base))) }
            }
            if segmented { out.bytes = [] }
        } else {
            for (offset, located) in report.findings.enumerated() {
                if offset > 0 { out.comma() }
                out.raw("{")
                let start = out.bytes.count
                writeFields(of: located.finding, in: located.snapshot, to: &out)
                findingFields.append(.init(piece: 0, range: start..<out.bytes.count))
                out.raw("}")
            }
        }
        out.raw("]")

        out.comma(); out.key("incomplete"); out.raw("[")
        for (offset, item) in report.incomplete.enumerated() {
            if offset > 0 { out.comma() }
            out.raw("{")
            out.key("rule"); out.string(item.incomplete.ruleID)
            out.comma(); out.key("reason"); out.string(item.incomplete.reason)
            if item.incomplete.element != nil {
                out.comma(); out.key("element"); out.optional(item.elementID)
                if let path = item.path { out.comma(); out.key("path"); out.string(path) }
                if let line = item.line { out.comma(); out.key("line"); out.int(line) }
            }
            out.raw("}")
        }
        out.raw("]")

        out.comma(); out.key("suppressed"); out.raw("{")
        for (offset, rule) in report.suppressed.keys.sorted().enumerated() {
            if offset > 0 { out.comma() }
            out.key(rule); out.int(report.suppressed[rule] ?? 0)
        }
        out.raw("}}\n")
        pieces.append(out.bytes)
        return RenderedReport(pieces: pieces, findingFields: findingFields, summary: summary, spilled: spilled)
    }

    /// The fields of one finding, in the order docs/findings.md gives, read from its snapshot. Returns the
    /// finding's fingerprint, which hashes the path written here.
    @discardableResult
    // The engine renders into byte arrays: a specialisation for them is compiled here, so
    // its calls are direct and inlined instead of going through the protocol's witnesses
    // (about 5% of a finding-heavy audit).
    @_specialize(exported:true,where Sink == [UInt8])
    @_specialize(exported:true,where Sink == ByteBuffer)
    package static func writeFields<Sink: ByteStore>(of finding: Finding, in snapshot: Snapshot, to out: inout Output<Sink>) -> (
        fingerprint: UInt64, defect: UInt64
    ) {
        let memo = out.memo(of: finding, in: snapshot)
        if let memo, let head = out.kinds[memo].head {
            out.bytes.writeAgain(head)
        } else {
            let start = out.bytes.count
            out.ruleHead(of: finding)
            if let memo { out.kinds[memo].head = start..<out.bytes.count }
        }
        // An element's findings follow one another in report order: its fields (id, path,
        // line, column, frame) are written for the first and copied for the others.
        if let index = finding.element, let written = out.lastElement, written.index == index {
            out.bytes.writeAgain(written.range)
        } else {
            let start = out.bytes.count
            out.elementFields(of: finding, in: snapshot)
            out.lastElement = finding.element.map { ($0, start..<out.bytes.count) }
        }
        out.messageAndEvidence(of: finding, memo: memo)
        let kindStart = memo.map { out.kinds[$0].start } ?? Fingerprint.kindStart(of: finding, in: snapshot)
        let (fingerprint, defect) = Fingerprint.pair(of: finding, in: snapshot, kindStart: kindStart, keys: &out.elementKeys)
        out.raw(#","fingerprint":""#)
        Fingerprint.appendHex(fingerprint, to: &out.bytes)
        out.raw(#"","defect":""#)
        Fingerprint.appendHex(defect, to: &out.bytes)
        out.raw("\"")
        return (fingerprint, defect)
    }

    /// A byte buffer with the few JSON pieces reports are made of.
    package struct Output<Sink: ByteStore> {
        package var bytes: Sink

        package init(bytes: Sink) { self.bytes = bytes }

        /// Each finding's path, from the bytes of the path before it.
        var paths = ElementPathWriter()
        /// `"rule":…,"severity":…,"wcag":[…],`: written once per kind of finding and
        /// copied for the others (``kinds``).
        mutating func ruleHead(of finding: Finding) {
            key("rule"); string(finding.ruleID)
            comma(); key("severity"); string(finding.severity.rawValue)
            comma(); key("wcag"); raw("[")
            for (offset, criterion) in finding.wcag.enumerated() {
                if offset > 0 { comma() }
                string(criterion)
            }
            raw("],")
        }

        /// `"element":…,"path":…,"line":…,"column":…,"frame":…` of a finding.
        mutating func elementFields(of finding: Finding, in snapshot: Snapshot) {
            raw(#""element":"#)
            let element = finding.element.map { snapshot.elements[$0] }
            if let element, !element.id.isAbsent {
                snapshot.texts.withBytes(element.id) { id in
                    id.withUnsafeBufferPointer { JSON.writeString(bytes: $0, to: &bytes) }
                }
            } else {
                raw("null")
            }
            raw(#","path":"#)
            if let index = finding.element {
                raw("\"")
                paths.write(pathOf: index, in: snapshot, to: &bytes)
                raw("\"")
            } else {
                raw("null")
            }
            raw(#","line":"#)
            if let element { int(Int(element.line)) } else { optional(finding.evidence("line")?.intValue) }
            raw(#","column":"#); optional(element.map { Int($0.column) })
            raw(#","frame":"#)
            if let frame = element?.frame {
                raw("["); number(frame.x)
                comma(); number(frame.y)
                comma(); number(frame.width)
                comma(); number(frame.height)
                raw("]")
            } else {
                raw("null")
            }
        }

        /// The keys of the element whose findings' fingerprints were made last.
        var elementKeys = Fingerprint.ElementKeys()

        /// The element whose fields were written last, and where.
        var lastElement: (index: Int, range: Range<Int>)?

        /// What a writer keeps of each kind of finding it wrote (at most ``maxKinds``):
        /// where it wrote the kind's rule head, the fingerprint parts of its kind, and the
        /// last finding's `,"message":` to the end of its evidence object with the evidence
        /// bytes it was written from. Held without references: the report's findings
        /// outlive its writer, and their evidence is only read once the rules have run.
        var kinds: [KindMemo] = []

        struct KindMemo {
            let kind: ObjectIdentifier
            let start: Fingerprint.KindStart
            var head: Range<Int>?
            var tailEvidence = UnsafeRawBufferPointer(start: nil, count: 0)
            var tail: Range<Int>?
            /// Earlier tails by a hash of their evidence, one per slot (the newest): made when
            /// a kind's evidence first changes. Findings in document order often cycle through
            /// a few evidences — each row of stacked sections names its twin in the first
            /// section — so the last tail alone missed them all.
            var earlier: [Tail] = []
        }

        /// A tail written, with the evidence it was written from and that evidence's hash.
        struct Tail {
            var hash: UInt64 = 0
            var evidence = UnsafeRawBufferPointer(start: nil, count: 0)
            var range: Range<Int> = 0..<0
        }

        /// The slots of a kind's ``KindMemo/earlier`` (a power of two).
        static var earlierSlots: Int { 64 }

        /// The most kinds a writer remembers (a writer serves a chunk of a few hundred
        /// findings, of a few kinds); findings of others are written in full.
        static var maxKinds: Int { 32 }

        /// The place of `finding`'s kind in ``kinds``, added if there is room.
        mutating func memo(of finding: Finding, in snapshot: Snapshot) -> Int? {
            let kind = ObjectIdentifier(finding.kind)
            for index in kinds.indices where kinds[index].kind == kind { return index }
            guard kinds.count < Self.maxKinds else { return nil }
            kinds.append(KindMemo(kind: kind, start: Fingerprint.kindStart(of: finding, in: snapshot)))
            return kinds.count - 1
        }

        /// `,"message":…,"result":…,"evidence":{…}`: a function of the finding's kind and
        /// evidence bytes only, so a finding with the same evidence as the last of its kind
        /// (20,000 identical frames, a row of same-sized icons) gets the bytes written for
        /// that one again, without filling the template or decoding the evidence.
        mutating func messageAndEvidence(of finding: Finding, memo: Int?) {
            let evidence = finding.evidenceBytes
            if let memo, let tail = kinds[memo].tail, kinds[memo].tailEvidence.hasSameBytes(as: evidence) {
                bytes.writeAgain(tail)
                return
            }
            // Not the last one's evidence: an earlier tail with the same evidence, if its
            // slot still holds one.
            var hash: UInt64 = 0
            if let memo, kinds[memo].tail != nil {
                hash = Self.hash(evidence)
                if kinds[memo].earlier.isEmpty, let last = kinds[memo].tail {
                    // The first change of evidence: the table starts with the last tail.
                    kinds[memo].earlier = Array(repeating: Tail(), count: Self.earlierSlots)
                    let lastHash = Self.hash(kinds[memo].tailEvidence)
                    kinds[memo].earlier[Self.earlierSlot(lastHash)] = Tail(hash: lastHash, evidence: kinds[memo].tailEvidence, range: last)
                }
                let earlier = kinds[memo].earlier[Self.earlierSlot(hash)]
                if earlier.hash == hash, !earlier.range.isEmpty, earlier.evidence.hasSameBytes(as: evidence) {
                    bytes.writeAgain(earlier.range)
                    kinds[memo].tailEvidence = evidence
                    kinds[memo].tail = earlier.range
                    return
                }
            }
            let start = bytes.count
            raw(#","message":"#); finding.writeMessageJSON(to: &bytes)
            raw(#","result":"#); string(finding.resultID)
            raw(#","evidence":"#); finding.writeEvidence(to: &bytes)
            if let memo {
                if !kinds[memo].earlier.isEmpty {
                    kinds[memo].earlier[Self.earlierSlot(hash)] = Tail(hash: hash, evidence: evidence, range: start..<bytes.count)
                }
                kinds[memo].tailEvidence = evidence
                kinds[memo].tail = start..<bytes.count
            }
        }

        /// The slot of ``KindMemo/earlier`` for an evidence hash: its top bits.
        private static func earlierSlot(_ hash: UInt64) -> Int {
            Int(truncatingIfNeeded: hash >> 58) & (earlierSlots - 1)
        }

        /// A hash of evidence bytes (``WordMixer``, eight bytes at a time): its top bits pick
        /// a slot of ``KindMemo/earlier``, all of it is compared before the bytes are.
        private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var mixer = WordMixer()
            mixer.add(bytes: bytes)
            return mixer.value
        }

        package mutating func raw(_ text: StaticString) {
            bytes.write(text)
        }

        mutating func comma() { bytes.write(byte: UInt8(ascii: ",")) }

        /// A key known at compile time (never needs escaping).
        mutating func key(_ name: StaticString) {
            bytes.write(byte: UInt8(ascii: "\""))
            bytes.write(name)
            bytes.write(#"":"#)
        }

        mutating func key(_ name: String) {
            JSON.writeString(name, to: &bytes)
            bytes.write(byte: UInt8(ascii: ":"))
        }

        mutating func string(_ value: String) { JSON.writeString(value, to: &bytes) }

        mutating func optional(_ value: String?) {
            if let value { JSON.writeString(value, to: &bytes) } else { raw("null") }
        }

        mutating func int(_ value: Int) { JSON.writeInt(value, to: &bytes) }

        mutating func optional(_ value: Int?) {
            if let value { JSON.writeInt(value, to: &bytes) } else { raw("null") }
        }

        mutating func number(_ value: Double) { JSON.writeNumber(value, to: &bytes) }
    }
}
