/// Stable identities for findings (SPEC §3): the same app, screen, rule and element give
/// the same fingerprint in every build, so baselines and dashboards can match findings.
///
/// The fingerprint is the FNV-1a 64-bit hash of its parts joined by a separator (0x1F)
/// that cannot occur in them, as 16 hex digits. The parts: app, screen, rule id, the
/// element key (`id:ID`, else `role:R|label:L|path:P`, or `snapshot`), then
/// `attribute=…`, `kind=…`, `other=…` from the evidence when present, so several findings
/// of one rule on one element stay distinct. Hashed as a stream, with no strings built.
public struct Fingerprint {
    private var hash = FNV1a()
    private var parts = 0

    public init() {}

    /// Starts the next part.
    public mutating func beginPart() {
        if parts > 0 { hash.add(0x1F) }
        parts += 1
    }

    public mutating func add(_ byte: UInt8) { hash.add(byte) }

    public mutating func add(_ bytes: ArraySlice<UInt8>) { hash.add(bytes) }

    public mutating func add(_ text: String) { hash.add(text) }

    /// 16 lower-case hex digits.
    public var hex: String {
        let value = hash.value
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for position in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * UInt64(position))) & 15
                buffer[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }

    /// The fingerprint of whole parts.
    public static func make(_ parts: [String]) -> String {
        var fingerprint = Fingerprint()
        for part in parts {
            fingerprint.beginPart()
            fingerprint.add(part)
        }
        return fingerprint.hex
    }

    /// The fingerprint of a finding; `path` is the element's path when already known.
    public static func of(_ finding: Finding, in snapshot: Snapshot, path: String? = nil) -> String {
        var fingerprint = Fingerprint()
        fingerprint.beginPart(); fingerprint.add(snapshot.app ?? "")
        fingerprint.beginPart(); fingerprint.add(snapshot.screen ?? "")
        fingerprint.beginPart(); fingerprint.add(finding.ruleID)
        fingerprint.beginPart()
        if let index = finding.element {
            fingerprint.addElementKey(index, in: snapshot, path: path)
        } else {
            fingerprint.add("snapshot")
        }
        for key in ["attribute", "kind", "other"] {
            guard let value = finding.evidence(key) else { continue }
            fingerprint.beginPart()
            fingerprint.add(key)
            fingerprint.add(UInt8(ascii: "="))
            fingerprint.add(MessageTemplate.text(of: value))
        }
        return fingerprint.hex
    }

    /// The element part: its `id`, else role + accessible name + path.
    mutating func addElementKey(_ index: Int, in snapshot: Snapshot, path: String?) {
        let element = snapshot.elements[index]
        let texts = snapshot.texts
        if !element.id.isAbsent, element.id.count > 0 {
            add("id:")
            texts.withBytes(element.id) { add($0) }
            return
        }
        add("role:")
        add(element.role.name)
        add("|label:")
        // The accessible name: the label, else the text (``Node/accessibleName``).
        if !texts.isBlank(element.label) {
            texts.withBytes(element.label) { add($0) }
        } else if !texts.isBlank(element.text) {
            texts.withBytes(element.text) { add($0) }
        }
        add("|path:")
        add(path ?? snapshot.path(of: index))
    }
}
