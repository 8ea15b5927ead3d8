/// Structured facts a rule measured, in a stable order (`ratio`, `required`, …).
/// Messages are made from them late, by the rule's message templates.
public typealias Evidence = [(EvidenceKey, JSON)]

/// What the findings of one rule's result share: the rule, the result, the severity and
/// criteria it is reported with, and where its message comes from. A rule run makes one
/// per result (and per severity or criteria a finding overrides) and its findings point to
/// it, so a finding carries none of these fields itself.
public final class FindingKind: Sendable {
    public let ruleID: String
    /// Which of the rule's outcomes this is (`low-contrast`, `below-platform-minimum`, …);
    /// picks the message template.
    public let resultID: String
    public let severity: Severity
    public let wcag: [String]
    public let messageSource: Finding.MessageSource

    public init(ruleID: String, resultID: String, severity: Severity, wcag: [String], messageSource: Finding.MessageSource) {
        self.ruleID = ruleID
        self.resultID = resultID
        self.severity = severity
        self.wcag = wcag
        self.messageSource = messageSource
    }
}

/// One result of one rule on one element (or on the snapshot as a whole): its kind (rule,
/// result, severity, criteria, message template), its element, and its evidence — kept
/// encoded in the rule run's ``EvidenceStore`` and written into reports from there, a
/// finding being 32 bytes of its own (a screen can have 100,000 of them).
public struct Finding: Sendable {
    public let kind: FindingKind
    let store: EvidenceStore
    let evidenceStart: UInt32
    let evidenceEnd: UInt32
    let elementIndex: Int32

    /// Where a finding's message comes from: kept as the template and filled from the
    /// evidence only when the message is written (reports write it straight into their
    /// bytes).
    public enum MessageSource: Sendable {
        case template(MessageTemplate)
        case literal(String)
    }

    /// A finding of `kind` whose evidence was already added to `store` at `evidence`.
    package init(kind: FindingKind, element: Int?, evidence: Range<Int>, in store: EvidenceStore) {
        self.kind = kind
        self.store = store
        evidenceStart = UInt32(clamping: evidence.lowerBound)
        evidenceEnd = UInt32(clamping: evidence.upperBound)
        elementIndex = element.map { Int32(clamping: $0) } ?? -1
    }

    /// A finding of `kind`, its evidence added to `store`.
    package init(kind: FindingKind, element: Int?, evidence: Evidence, in store: EvidenceStore) {
        self.init(kind: kind, element: element, evidence: store.append(evidence), in: store)
    }

    /// A finding standing alone: its kind and evidence stored for it only.
    public init(
        ruleID: String, resultID: String, severity: Severity, wcag: [String], element: Int?,
        evidence: Evidence, messageSource: MessageSource
    ) {
        let store = EvidenceStore(capacity: 64)
        self.init(
            kind: FindingKind(ruleID: ruleID, resultID: resultID, severity: severity, wcag: wcag, messageSource: messageSource),
            element: element, evidence: evidence, in: store)
    }

    public var ruleID: String { kind.ruleID }
    public var resultID: String { kind.resultID }
    public var severity: Severity { kind.severity }
    public var wcag: [String] { kind.wcag }
    public var messageSource: MessageSource { kind.messageSource }
    /// The element's index, `nil` for a finding about the snapshot itself.
    public var element: Int? { elementIndex < 0 ? nil : Int(elementIndex) }

    /// Structured facts the rule measured, in the order it reported them (decoded from the
    /// store: reports write them from there without this copy).
    public var evidence: Evidence { withEvidence { $0.evidence } }

    /// Calls `body` with a reader of the finding's evidence (valid for the call only).
    func withEvidence<Result>(_ body: (EvidenceReader) -> Result) -> Result {
        store.read(Int(evidenceStart)..<Int(evidenceEnd), body)
    }

    /// The finding's encoded evidence, where its store keeps it: valid while the store
    /// lives (its findings keep it) and is no longer appended to (once its rule has run).
    /// With the same kind, two findings whose bytes here are equal are written the same
    /// (message and evidence object): the report writer reuses what it wrote.
    package var evidenceBytes: UnsafeRawBufferPointer {
        store.read(Int(evidenceStart)..<Int(evidenceEnd)) { $0.bytes }
    }

    /// Calls `body` with the text of each of three evidence keys the finding has, as
    /// fingerprints hash it — a string's UTF-8, any other value as a message shows it — in
    /// the order of `keys`, with the key's place among them (0, 1 or 2). The evidence is
    /// read once for all three (a key's first entry counts).
    package func forEachEvidenceText(
        named keys: (StaticString, StaticString, StaticString), _ body: (_ key: Int, _ text: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        withEvidence { reader in
            var found: (EvidenceReader.Value?, EvidenceReader.Value?, EvidenceReader.Value?)
            reader.forEachEntry { key, value in
                if found.0 == nil, key.hasSameBytes(as: keys.0) {
                    found.0 = value
                } else if found.1 == nil, key.hasSameBytes(as: keys.1) {
                    found.1 = value
                } else if found.2 == nil, key.hasSameBytes(as: keys.2) {
                    found.2 = value
                }
                return found.0 == nil || found.1 == nil || found.2 == nil
            }
            func give(_ place: Int, _ value: EvidenceReader.Value?) {
                guard let value else { return }
                if reader.tag(of: value) == EvidenceTag.string {
                    body(place, reader.text(of: value))
                } else {
                    MessageTemplate.text(of: reader.json(value)).withUTF8Bytes { body(place, $0) }
                }
            }
            give(0, found.0)
            give(1, found.1)
            give(2, found.2)
        }
    }

    /// The message, filled in from the template and the evidence.
    public var message: String {
        var bytes: [UInt8] = []
        appendMessage(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the message as UTF-8.
    public func appendMessage(to out: inout [UInt8]) {
        switch kind.messageSource {
        case .template(let template): withEvidence { template.fill($0, to: &out, escaped: false) }
        case .literal(let text): out.append(contentsOf: text.utf8)
        }
    }

    /// Writes the message as a JSON string (quoted and escaped).
    // Called from the report writer's module: without a specialisation compiled here for
    // byte arrays, every byte written went through the sink protocol's witnesses.
    @_specialize(exported:true,where Sink == [UInt8])
    @_specialize(exported:true,where Sink == ByteBuffer)
    package func writeMessageJSON<Sink: ByteSink>(to out: inout Sink) {
        switch kind.messageSource {
        case .template(let template):
            out.write(byte: UInt8(ascii: "\""))
            withEvidence { template.fill($0, to: &out, escaped: true) }
            out.write(byte: UInt8(ascii: "\""))
        case .literal(let text): JSON.writeString(text, to: &out)
        }
    }

    /// Writes the evidence as a compact JSON object, its keys as members.
    @_specialize(exported:true,where Sink == [UInt8])
    @_specialize(exported:true,where Sink == ByteBuffer)
    package func writeEvidence<Sink: ByteSink>(to out: inout Sink) {
        withEvidence { $0.writeObject(to: &out) }
    }

    /// The value of one piece of evidence.
    public func evidence(_ key: String) -> JSON? {
        withEvidence { reader in reader.value(of: key).map { reader.json($0) } }
    }

    /// The value of one piece of evidence.
    public func evidence(_ key: EvidenceKey) -> JSON? { evidence(key.rawValue) }
}

/// A rule that could not judge: never a pass (docs/findings.md, `incomplete`).
public struct Incomplete: Sendable {
    public var ruleID: String
    public var reason: String
    /// The element it could not judge, `nil` for the whole snapshot.
    public var element: Int?

    public init(ruleID: String, reason: String, element: Int?) {
        self.ruleID = ruleID
        self.reason = reason
        self.element = element
    }
}
