import AuditSupport

/// The `Server-Timing` header (W3C Server Timing) of an audit's answer: where the daemon
/// spent the request's time, phase by phase, in milliseconds —
/// `receive;dur=12.1, queue;dur=0.0, parse;dur=80.3, rules;dur=55.0, findings;dur=15.2, render;dur=4.4, journal;dur=28.9`.
/// `auditctl audit --timing` prints it; browsers' and proxies' tools read it as well.
package struct ServerTiming: Sendable {
    /// The phases of an audit, in the order they happen.
    package static let receive = "receive", queue = "queue", parse = "parse", image = "image", ocr = "ocr", rules = "rules"
    /// The rules' findings ordered, placed and written, after the rules are done: on a
    /// finding-heavy screen the cost of its findings, apart from the checks'.
    package static let findings = "findings"
    package static let render = "render", journal = "journal"
    package static let auditPhases = [receive, queue, parse, image, ocr, rules, findings, render, journal]

    package init() {}

    /// Phases in the order they happened.
    package private(set) var phases: [(name: String, milliseconds: Double)] = []

    /// Adds a phase that lasted from `start` to `end` (monotonic nanoseconds).
    package mutating func add(_ name: String, from start: UInt64, to end: UInt64) {
        add(name, milliseconds: Timestamp.milliseconds(from: start, to: end))
    }

    package mutating func add(_ name: String, milliseconds: Double) {
        phases.append((name, max(0, milliseconds)))
    }

    /// The header's value: each phase as `name;dur=MILLISECONDS`, to a microsecond.
    package var headerValue: String {
        var bytes: [UInt8] = []
        for (offset, phase) in phases.enumerated() {
            if offset > 0 { bytes.append(contentsOf: ", ".utf8) }
            bytes.append(contentsOf: phase.name.utf8)
            bytes.append(contentsOf: ";dur=".utf8)
            DecimalWriter.append(phase.milliseconds, decimals: 3, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
