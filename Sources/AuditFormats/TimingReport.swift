import AuditCore

/// `auditctl audit --timing`: where each snapshot's time went, on standard error — the
/// request as auditctl saw it, and auditd's own phases from the answer's `Server-Timing`
/// header (`receive;dur=12.1, queue;dur=0, parse;dur=80.3, …`).
package enum TimingReport {
    /// One phase of a `Server-Timing` header.
    package struct Phase {
        package var name: String
        package var milliseconds: Double
    }

    /// The phases of a `Server-Timing` value (W3C Server Timing: `name;dur=N;desc="…"`,
    /// comma-separated); entries without a readable `dur` are skipped.
    package static func phases(_ header: String) -> [Phase] {
        header.split(separator: ",").compactMap { entry in
            let parameters = entry.split(separator: ";").map { String($0).trimming() }
            guard let name = parameters.first, !name.isEmpty else { return nil }
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimming() }
                if pair.count == 2, pair[0].lowercased() == "dur", let value = Double(pair[1]), value.isFinite {
                    return Phase(name: name, milliseconds: value)
                }
            }
            return nil
        }
    }

    /// `FILE: 262.4 ms (auditd: receive 14.2, queue 0.1, parse 81.0, rules 55.1, findings 15.2, render 4.9, journal 29.8 ms)`.
    package static func line(file: String, requestMilliseconds: Double, serverTiming: String?) -> String {
        var text = "\(file): \(milliseconds(requestMilliseconds)) ms"
        let phases = serverTiming.map(phases) ?? []
        if !phases.isEmpty {
            text += " (auditd: " + phases.map { "\($0.name) \(milliseconds($0.milliseconds))" }.joined(separator: ", ") + " ms)"
        }
        return text
    }

    /// Milliseconds to a tenth: `0.4`, `81.0`.
    package static func milliseconds(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
