/// Stable identities for findings (SPEC §3): the same app, screen, rule and element give
/// the same fingerprint in every build, so baselines and dashboards can match findings.
public enum Fingerprint {
    /// FNV-1a 64-bit hash of the parts, joined by a separator that cannot occur in them,
    /// as 16 hex digits.
    public static func make(_ parts: [String]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (offset, part) in parts.enumerated() {
            if offset > 0 {
                hash ^= 0x1F
                hash &*= 0x100_0000_01B3
            }
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01B3
            }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The element part: its `id`, else role + label + path.
    public static func elementKey(_ node: Node) -> String {
        if let id = node.id, !id.isEmpty { return "id:" + id }
        return "role:\(node.role.name)|label:\(node.accessibleName ?? "")|path:\(node.path)"
    }

    /// The fingerprint of a finding.
    public static func of(_ finding: Finding, in snapshot: Snapshot) -> String {
        let element = finding.element.map { elementKey(snapshot.node($0)) } ?? "snapshot"
        var parts = [snapshot.app ?? "", snapshot.screen ?? "", finding.ruleID, element]
        // Snapshot-level findings about different attributes must stay distinct.
        // Several findings of one rule on one element stay distinct by what they are about.
        for key in ["attribute", "kind", "other"] {
            if let value = finding.evidence(key) { parts.append(key + "=" + MessageTemplate.text(of: value)) }
        }
        return make(parts)
    }
}
