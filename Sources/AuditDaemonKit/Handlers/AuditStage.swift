import AuditTransport

/// The stages of one audit, in the order they happen. Each is a step of ``AuditJob`` (or,
/// for the first two and the last, of the request's way to it and from it), and is timed
/// under its name: in the answer's `Server-Timing` header and in
/// `auditd_audit_phase_seconds_total{phase=…}`. A new stage is a case here and a step there.
enum AuditStage: String, CaseIterable, Sendable {
    /// The request's bytes arriving, first to last.
    case receive
    /// Waiting for a worker.
    case queue
    /// The capture read into a snapshot.
    case parse
    /// The screenshot decoded and fitted to the snapshot.
    case image
    /// Its text read by OCR (`ocr=1`).
    case ocr
    /// The rules run.
    case rules
    /// The rules' findings ordered, placed and written, after the rules are done: on a
    /// finding-heavy screen the cost of its findings, apart from the checks'.
    case findings
    /// The answer and the journal's records rendered.
    case render
    /// The records made durable.
    case journal
}

extension ServerTiming {
    /// Adds `stage`, which lasted from `start` to `end` (monotonic nanoseconds).
    mutating func add(_ stage: AuditStage, from start: UInt64, to end: UInt64) { add(stage.rawValue, from: start, to: end) }

    mutating func add(_ stage: AuditStage, milliseconds: Double) { add(stage.rawValue, milliseconds: milliseconds) }
}
