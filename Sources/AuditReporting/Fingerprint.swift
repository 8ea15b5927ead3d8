/// Stable identities for findings (docs/findings.md): the same app, screen, rule, result
/// and element give the same fingerprint in every build, so baselines and dashboards can
/// match findings.
///
/// Version 3 (``version``; reports and SARIF say which): the FNV-1a 64-bit hash of its
/// parts joined by a separator (0x1F) that cannot occur in them, as 16 hex digits. The
/// parts: `v3`, app, screen, rule id, result id, the element key, then `attribute=…`,
/// `kind=…`, `other=…` from the evidence when present (several findings of one rule on one
/// element stay distinct). The element key is built from what identifies the element and
/// not from what a fix changes (``appendElementKey(_:in:identity:instance:chain:to:)``): its id when no other element of
/// the screen has it; else the nearest ancestor with such an id and the way down from it —
/// each step's role and id, and, where siblings repeat one another (the rows of a list),
/// the text the step shows ("Running shoes"), its place among them only when it shows
/// none. Never the label (adding a missing label must not re-key the element's other
/// findings), the path, the line or the frame. Version 2 keyed repeated ids by their
/// document-order number and id-less elements by role, label and path: a row inserted
/// above re-keyed every row below.
public struct Fingerprint {
    private var hash = FNV1a()
    private var parts = 0

    /// The fingerprint scheme's version: baselines made with another are compared by rule,
    /// element and message instead (auditctl says so).
    public static let version = 4

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

    /// Builds what fingerprints are made from (the snapshot's element identities) now:
    /// the engine does it beside the rules on a large screen, rather than the first
    /// finding's rendering while the other threads wait for it.
    package static func prepare(_ snapshot: Snapshot) { _ = ElementIdentity.of(snapshot) }

    /// Lets go of what the snapshot's memo keeps but fingerprints (what the rules derived
    /// for themselves: the transcript, the targets): the engine calls it once the rules
    /// are done and before their findings are written, which need only the element
    /// identities.
    package static func releaseAllButIdentities(of snapshot: Snapshot) {
        snapshot.memo.removeAll(except: [ElementIdentity.memoKey])
    }

    /// The evidence keys that tell several findings of one rule on one element apart; a
    /// defect leaves out the last (`other`).
    private static let distinguishingKeys: (StaticString, StaticString, StaticString) = ("attribute", "kind", "other")

    /// The fingerprint's and the defect's parts before the element key — version, app,
    /// screen, rule id, (for the defect `defect`,) result id — the same for every finding of
    /// one kind (rule and result) in one snapshot, so a writer hashes them once per kind.
    struct KindStart {
        let instance: FNV1a
        let defect: FNV1a
    }

    static func kindStart(of finding: Finding, in snapshot: Snapshot) -> KindStart {
        var rule = Fingerprint()
        rule.beginPart(); rule.add("v4")
        rule.beginPart(); rule.add(snapshot.app ?? "")
        rule.beginPart(); rule.add(snapshot.screen ?? "")
        // The rule's first id: a renamed rule's findings keep their fingerprints.
        rule.beginPart(); rule.add(BuiltInRules.fingerprintID(finding.ruleID))
        // Each part from here on begins with the separator.
        var instance = rule.hash
        instance.add(0x1F)
        instance.add(finding.resultID)
        instance.add(0x1F)
        var defect = rule.hash
        defect.add(0x1F)
        defect.add("defect")
        defect.add(0x1F)
        defect.add(finding.resultID)
        defect.add(0x1F)
        return KindStart(instance: instance, defect: defect)
    }

    /// A finding's fingerprint and the defect it is an instance of, from the parts already
    /// hashed for its kind (``kindStart(of:in:)``). The defect: the same rule and result on
    /// elements of one pattern — the trash button of every row of a list is one defect with
    /// a row's worth of instances. Its element key leaves out what tells repeated siblings
    /// apart (the text a row shows, its place), and its evidence leaves out `other` (the
    /// element a finding names beside its own); an element with an id of its own is a
    /// defect of its own. The element's two keys are made once for all its findings (`keys`
    /// holds the last element's), and the evidence is read in place, once for both.
    static func pair(of finding: Finding, in snapshot: Snapshot, kindStart: KindStart, keys: inout ElementKeys) -> (
        fingerprint: UInt64, defect: UInt64
    ) {
        if !keys.hold(finding.element) { keys.prepare(finding.element, in: snapshot) }
        // Then the element key, and the evidence that tells findings on one element apart
        // (for a defect, without `other`).
        var instance = kindStart.instance
        var defect = kindStart.defect
        keys.instance.withUnsafeBufferPointer { instance.add($0) }
        keys.pattern.withUnsafeBufferPointer { defect.add($0) }
        finding.forEachEvidenceText(named: distinguishingKeys) { place, text in
            let name = place == 0 ? distinguishingKeys.0 : place == 1 ? distinguishingKeys.1 : distinguishingKeys.2
            instance.add(0x1F)
            name.withUTF8Buffer { instance.add($0) }
            instance.add(UInt8(ascii: "="))
            // The other element a finding names by its path is hashed by its key: a row
            // inserted above moves its path, not what it is.
            if place == 2, text.first == UInt8(ascii: "/"), let other = snapshot.element(atPath: text) {
                keys.other(other, in: snapshot).withUnsafeBufferPointer { instance.add($0) }
            } else {
                instance.add(text)
            }
            guard place != 2 else { return }
            defect.add(0x1F)
            name.withUTF8Buffer { defect.add($0) }
            defect.add(UInt8(ascii: "="))
            defect.add(text)
        }
        return (instance.value, defect.value)
    }

    /// The element keys of the last element a writer fingerprinted a finding of (an
    /// element's findings follow one another in report order), and the snapshot's element
    /// identities they are made from, looked up once per writer.
    package struct ElementKeys {
        private var identity: ElementIdentity?
        private var element: Int?
        private var prepared = false
        /// The key of the element itself (fingerprints), and of the pattern it is an
        /// instance of (defects).
        private(set) var instance: [UInt8] = []
        private(set) var pattern: [UInt8] = []
        private var chain: [Int] = []

        package init() {}

        /// The key of another element a finding names (``pair(of:in:kindStart:keys:)``).
        private var otherKey: [UInt8] = []

        /// The instance key of `element`, another element than the one whose keys are held.
        mutating func other(_ element: Int, in snapshot: Snapshot) -> [UInt8] {
            let identity = self.identity ?? ElementIdentity.of(snapshot)
            self.identity = identity
            otherKey.removeAll(keepingCapacity: true)
            otherKey.append(contentsOf: "@".utf8)
            Fingerprint.appendElementKey(element, in: snapshot, identity: identity, instance: true, chain: &chain, to: &otherKey)
            return otherKey
        }

        /// Whether the keys held are `element`'s.
        func hold(_ element: Int?) -> Bool { prepared && element == self.element }

        /// Makes the keys of `element` (`snapshot` for a finding about the screen).
        mutating func prepare(_ element: Int?, in snapshot: Snapshot) {
            prepared = true
            self.element = element
            instance.removeAll(keepingCapacity: true)
            pattern.removeAll(keepingCapacity: true)
            guard let element else {
                instance.append(contentsOf: "snapshot".utf8)
                pattern.append(contentsOf: "snapshot".utf8)
                return
            }
            let identity = self.identity ?? ElementIdentity.of(snapshot)
            self.identity = identity
            Fingerprint.appendElementKey(element, in: snapshot, identity: identity, instance: true, chain: &chain, to: &instance)
            Fingerprint.appendElementKey(element, in: snapshot, identity: identity, instance: false, chain: &chain, to: &pattern)
        }
    }

    /// The element part: its id when it is the screen's only element with it; else the
    /// nearest ancestor whose id is, and each step down from it (role, id, and for siblings
    /// that repeat one another the text shown, else the label, else the place among them
    /// counted from the last: ``ElementIdentity``).
    /// `instance: false` leaves out what tells repeated siblings apart: the pattern the
    /// element is an instance of (the defect of ``pair(of:in:ruleStart:keys:)``).
    static func appendElementKey(
        _ index: Int, in snapshot: Snapshot, identity: ElementIdentity, instance: Bool, chain: inout [Int], to key: inout [UInt8]
    ) {
        let elements = snapshot.elements
        let texts = snapshot.texts
        if identity.idCount[index] == 1 {
            key.append(contentsOf: "id:".utf8)
            texts.withBytes(elements[index].id) { key.append(contentsOf: $0) }
            return
        }
        // Up to the anchor: the nearest ancestor with an id of its own on the screen.
        chain.removeAll(keepingCapacity: true)
        chain.append(index)
        var anchor = -1
        var current = Int(elements[index].parent)
        while current >= 0 {
            if identity.idCount[current] == 1 {
                anchor = current
                break
            }
            chain.append(current)
            current = Int(elements[current].parent)
        }
        if anchor >= 0 {
            key.append(contentsOf: "in:".utf8)
            texts.withBytes(elements[anchor].id) { key.append(contentsOf: $0) }
        } else {
            key.append(contentsOf: "in:screen".utf8)
        }
        for step in chain.reversed() {
            key.append(UInt8(ascii: "/"))
            key.append(contentsOf: elements[step].role.name.utf8)
            if elements[step].hasID {
                key.append(UInt8(ascii: "#"))
                texts.withBytes(elements[step].id) { key.append(contentsOf: $0) }
            }
            guard identity.repeated[step], instance else { continue }
            // A row showing nothing: its place counted from the last of its kind.
            if identity.fromLast[step] > 0 {
                key.append(UInt8(ascii: "^"))
                key.append(contentsOf: String(identity.fromLast[step]).utf8)
                continue
            }
            let shown = identity.shown[step]
            key.append(UInt8(ascii: "="))
            texts.withBytes(shown) { key.append(contentsOf: $0.prefix(128)) }
            if identity.sameContentOrdinal[step] > 0 {
                key.append(UInt8(ascii: "~"))
                key.append(contentsOf: String(identity.sameContentOrdinal[step]).utf8)
            }
        }
    }
}
