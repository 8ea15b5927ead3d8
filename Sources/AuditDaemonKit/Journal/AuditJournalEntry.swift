import AuditCore

/// The journal records of one audit (docs/API.md): one `audit` record, then one
/// `finding` record per finding, each carrying app, build and screen. Finding records are
/// the bytes of the rendered report, written from where they are.
///
/// What every finding record repeats is bounded: an app, build or screen longer than
/// ``maxRepeatedBytes`` is written whole in the `audit` record only, and cut (ending
/// in `…`) in the finding records, which then say `"identity_cut":true` — a 1 MB app name
/// with 450 findings made 450 MB of journal before.
package struct AuditJournalEntry: JournalEntry {
    /// `"type":"audit","audit":…,"app":…,"build":…,"screen":…,` and the same with
    /// `"type":"finding"`: the start of every record.
    let auditHead: [UInt8]
    let findingHead: [UInt8]
    /// The `audit` record's own fields after the identity.
    let auditFields: [UInt8]
    private(set) var report: RenderedReport

    /// The report whose finding records these are (the answer's bytes).
    package var rendered: RenderedReport { report }

    /// Reads back the report's spilled pieces (``RenderedReport/readSpilled()``): before
    /// the entry is journalled.
    package mutating func readSpilled() throws(SpillError) { try report.readSpilled() }

    /// The longest app, build or screen repeated in every finding record (UTF-8 bytes).
    package static let maxRepeatedBytes = 256

    /// The most stops an audit record lists the speech of (the digest covers them all).
    package static let maxTranscriptStops = 1000

    package init(_ report: AuditReport, rendered: RenderedReport, transcript: Transcript.Summary? = nil) {
        func identity(_ cut: Bool) -> ArraySlice<UInt8> {
            let bound = { (value: String?) in cut ? value.map(Self.cut) : value }
            var fields: [(String, JSON)] = [
                ("audit", .string(report.id)), ("app", .optional(bound(report.app))), ("build", .optional(bound(report.build))),
                ("screen", .optional(bound(report.screen))),
            ]
            if cut, [report.app, report.build, report.screen].contains(where: { ($0?.utf8.count ?? 0) > Self.maxRepeatedBytes }) {
                fields.append(("identity_cut", .bool(true)))
            }
            return JSON.fieldBytes(fields)
        }
        auditHead = Array(#""type":"audit","#.utf8) + identity(false) + [UInt8(ascii: ",")]
        findingHead = Array(#""type":"finding","#.utf8) + identity(true) + [UInt8(ascii: ",")]
        var audit = Array(
            JSON.fieldBytes([
                ("platform", .string(report.platform.rawValue)), ("dialect", .string(report.dialect.rawValue)),
                ("ruleset", .string(report.ruleSet)), ("elements", .int(report.elementCount)),
                ("duration_ms", .number(report.roundedDuration)),
            ]))
        audit.append(contentsOf: #","summary":"#.utf8)
        audit.append(contentsOf: rendered.summaryBytes)
        if let transcript {
            let speech = transcript.speech.prefix(Self.maxTranscriptStops)
            var members: [(String, JSON)] = [
                ("reader", .string(transcript.reader.rawValue)), ("digest", .string(transcript.digest)),
                ("stops", .int(transcript.stopCount)), ("speech", .array(speech.map(JSON.string))),
            ]
            if transcript.stopCount > speech.count { members.append(("speech_cut", .bool(true))) }
            audit.append(contentsOf: #","transcript":"#.utf8)
            audit.append(contentsOf: JSON.object(members).bytes)
        }
        self.auditFields = audit
        self.report = rendered
    }

    /// `value` cut to at most ``maxRepeatedBytes`` bytes at a character boundary, with `…`.
    static func cut(_ value: String) -> String {
        guard value.utf8.count > maxRepeatedBytes else { return value }
        var kept = ""
        var bytes = 0
        for character in value {
            let size = character.utf8.count
            guard bytes + size <= maxRepeatedBytes - 3 else { break }
            kept.append(character)
            bytes += size
        }
        return kept + "…"
    }

    package var recordCount: Int { report.findingFields.count + 1 }

    /// As the journal's default counts it, without a call per record.
    package var byteCount: Int {
        var total = auditHead.count + auditFields.count + 48
        for location in report.findingFields { total += findingHead.count + location.range.count + 48 }
        return total
    }

    /// The record as ``withRecordPieces(_:)`` gives it, joined.
    package func writeRecord(_ index: Int, to out: inout [UInt8]) {
        withRecordPieces { piece in
            let pieces = piece(index)
            out.append(contentsOf: pieces.head)
            out.append(contentsOf: pieces.body)
        }
    }

    package func withRecordPieces<Result>(_ body: ((Int) -> RecordPieces) -> Result) -> Result {
        auditHead.withUnsafeBytes { auditHead in
            findingHead.withUnsafeBytes { findingHead in
                auditFields.withUnsafeBytes { auditFields in
                    // A finding's fields are read where the report keeps them, in whichever
                    // of its pieces.
                    report.withPieceBytes { reportPieces in
                        body { index in
                            guard index > 0 else { return RecordPieces(head: auditHead, body: auditFields) }
                            let location = report.findingFields[index - 1]
                            return RecordPieces(
                                head: findingHead, body: UnsafeRawBufferPointer(rebasing: reportPieces[location.piece][location.range]))
                        }
                    }
                }
            }
        }
    }
}
