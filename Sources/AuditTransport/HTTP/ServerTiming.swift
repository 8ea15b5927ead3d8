import AuditSupport

/// The `Server-Timing` header (W3C Server Timing) of an answer: where the server spent the
/// request's time, phase by phase, in milliseconds — `receive;dur=12.1, queue;dur=0.0,
/// parse;dur=80.3, …`. The phases are the service's to name (an audit's are its stages).
/// `auditctl audit --timing` prints it; browsers' and proxies' tools read it as well.
package struct ServerTiming: Sendable {
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
