/// Stable identities for findings (docs/findings.md): the same app, screen, rule, result
/// and element give the same fingerprint in every build, so baselines and dashboards can
/// match findings.
///
/// Version 2 (``version``; reports and SARIF say which): the FNV-1a 64-bit hash of its
/// parts joined by a separator (0x1F) that cannot occur in them, as 16 hex digits. The
/// parts: `v2`, app, screen, rule id, result id (an icon's and a border's contrast on one
/// button are two findings), the element key (`id:ID`, with `#N` when N earlier elements
/// carry the same id — rows of a list repeat one resource-id —, else
/// `role:R|label:L|path:P`, or `snapshot`), then `attribute=…`, `kind=…`, `other=…` from
/// the evidence when present, so several findings of one rule on one element stay
/// distinct. Hashed as a stream, with no strings built. Version 1 had neither the result
/// id nor the ordinal.
public struct Fingerprint {
    private var hash = FNV1a()
    private var parts = 0

    /// The fingerprint scheme's version: baselines made with another are compared by rule,
    /// element and message instead (auditctl says so).
    public static let version = 2

    public init() {}

    /// Starts the next part.
    public mutating func beginPart() {
        if parts > 0 { hash.add(0x1F) }
        parts += 1
    }

    public mutating func add(_ byte: UInt8) { hash.add(byte) }

    public mutating func add(_ bytes: ArraySlice<UInt8>) { hash.add(bytes) }

    public mutating func add(_ text: String) { hash.add(text) }

    /// A fingerprint value as 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String { FNV1a.hex(value) }

    /// A fingerprint value's 16 hex digits appended to `out`.
    public static func appendHex<Sink: ByteSink>(_ value: UInt64, to out: inout Sink) {
        var digits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            FNV1a.writeHex(value, to: buffer)
            out.write(bytes: UnsafeRawBufferPointer(buffer))
        }
    }

    /// The evidence keys that tell several findings of one rule on one element apart.
    private static let distinguishingKeys = ["attribute", "kind", "other"]

    /// The fingerprint's first parts (version, app, screen, rule id): the same for every
    /// finding of a rule in one snapshot, so a writer computes it once per rule.
    static func ruleStart(_ ruleID: String, in snapshot: Snapshot) -> Fingerprint {
        var fingerprint = Fingerprint()
        fingerprint.beginPart(); fingerprint.add("v2")
        fingerprint.beginPart(); fingerprint.add(snapshot.app ?? "")
        fingerprint.beginPart(); fingerprint.add(snapshot.screen ?? "")
        fingerprint.beginPart(); fingerprint.add(ruleID)
        return fingerprint
    }

    /// The fingerprint of a finding, from the parts already hashed for its rule
    /// (``ruleStart(_:in:)``); `path` holds the element's path bytes, needed only when the
    /// element has no `id`.
    static func value(of finding: Finding, in snapshot: Snapshot, path: ArraySlice<UInt8>, ruleStart: Fingerprint) -> UInt64 {
        var fingerprint = ruleStart
        fingerprint.beginPart()
        fingerprint.add(finding.resultID)
        fingerprint.beginPart()
        if let index = finding.element {
            fingerprint.addElementKey(index, in: snapshot, path: path)
        } else {
            fingerprint.add("snapshot")
        }
        for key in distinguishingKeys {
            guard let value = finding.evidence(key) else { continue }
            fingerprint.beginPart()
            fingerprint.add(key)
            fingerprint.add(UInt8(ascii: "="))
            switch value {
            case .string(let text): fingerprint.add(text)
            default: fingerprint.add(MessageTemplate.text(of: value))
            }
        }
        return fingerprint.hash.value
    }

    /// The element part: its `id`, else role + accessible name + path.
    mutating func addElementKey(_ index: Int, in snapshot: Snapshot, path: ArraySlice<UInt8>) {
        let element = snapshot.elements[index]
        let texts = snapshot.texts
        if element.hasID {
            add("id:")
            texts.withBytes(element.id) { add($0) }
            let ordinal = snapshot.idOccurrences.ordinal(of: index, in: snapshot)
            if ordinal > 0 {
                add(UInt8(ascii: "#"))
                add(String(ordinal))
            }
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
        add(path)
    }
}
