/// A rule's message with `${key}` placeholders filled from a finding's evidence: strings
/// as they are, numbers in their shortest form (up to 3 decimals), lists joined by ", ",
/// a missing key as `?`. Compiled once per rule: the literal runs are kept both as they
/// are and already escaped for JSON, so a report writes a message without scanning the
/// template or escaping it again.
public final class MessageTemplate: Sendable {
    /// Plain values only (ranges and indexes), so walking the parts copies no references.
    enum Part {
        /// A literal run: its bytes in ``plainBytes`` and, escaped for JSON, in ``escapedBytes``.
        case literal(plain: Range<Int>, escaped: Range<Int>)
        /// A placeholder: its key in ``keys``.
        case placeholder(key: Int)
    }

    /// The template as written (`"Contrast ${ratio}:1 is below ${required}:1"`).
    public let text: String
    let parts: [Part]
    let plainBytes: [UInt8]
    let escapedBytes: [UInt8]
    let keys: [EvidenceKey]
    /// The keys' UTF-8 one after another, as the evidence store holds keys: key `i` at
    /// `keyRanges[i]` (one buffer, so filling a message retains no array per placeholder).
    let keyBytes: [UInt8]
    let keyRanges: [Range<Int>]
    /// Whether key `i` is `role` (said as people say roles).
    let keyIsRole: [Bool]

    /// The evidence keys the template names, in order.
    public var placeholders: [EvidenceKey] { keys }

    public init(_ text: String) {
        self.text = text
        var parts: [Part] = []
        var plainBytes: [UInt8] = []
        var escapedBytes: [UInt8] = []
        var keys: [EvidenceKey] = []
        var literal: [UInt8] = []
        let bytes = Array(text.utf8)
        func flush() {
            guard !literal.isEmpty else { return }
            let plainStart = plainBytes.count, escapedStart = escapedBytes.count
            plainBytes += literal
            literal.withUnsafeBufferPointer { JSON.writeStringContents(bytes: $0, to: &escapedBytes) }
            parts.append(.literal(plain: plainStart..<plainBytes.count, escaped: escapedStart..<escapedBytes.count))
            literal.removeAll()
        }
        var index = 0
        while index < bytes.count {
            // `${` … `}` is a placeholder; any other `$` is text.
            if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{"),
                let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}"))
            {
                flush()
                parts.append(.placeholder(key: keys.count))
                keys.append(EvidenceKey(rawValue: String(decoding: bytes[(index + 2)..<close], as: UTF8.self)))
                index = close + 1
            } else {
                literal.append(bytes[index])
                index += 1
            }
        }
        flush()
        self.parts = parts
        self.plainBytes = plainBytes
        self.escapedBytes = escapedBytes
        self.keys = keys
        var keyBytes: [UInt8] = []
        var keyRanges: [Range<Int>] = []
        for key in keys {
            let start = keyBytes.count
            keyBytes.append(contentsOf: key.rawValue.utf8)
            keyRanges.append(start..<keyBytes.count)
        }
        self.keyBytes = keyBytes
        self.keyRanges = keyRanges
        keyIsRole = keys.map { $0 == .role }
    }

    /// Appends the filled message to `output` as UTF-8.
    public func append(_ evidence: Evidence, to output: inout [UInt8]) {
        let store = EvidenceStore(capacity: 64)
        let range = store.append(evidence)
        store.read(range) { fill($0, to: &output, escaped: false) }
    }

    /// The filled message, as it reads or (`escaped`) as the contents of a JSON string,
    /// from a finding's encoded evidence. Numbers never need escaping; strings are written
    /// from the evidence's bytes without an intermediate copy.
    func fill<Sink: ByteSink>(_ evidence: EvidenceReader, to output: inout Sink, escaped: Bool) {
        func text(_ text: String) {
            if escaped { JSON.writeStringContents(text, to: &output) } else { output.write(utf8: text) }
        }
        let literals = escaped ? escapedBytes : plainBytes
        literals.withUnsafeBytes { literals in
            keyBytes.withUnsafeBytes { keyBytes in
                for part in parts {
                    switch part {
                    case .literal(let plain, let escapedRange):
                        output.write(bytes: UnsafeRawBufferPointer(rebasing: literals[escaped ? escapedRange : plain]))
                    case .placeholder(let key):
                        guard let value = evidence.value(ofUTF8: UnsafeRawBufferPointer(rebasing: keyBytes[keyRanges[key]])) else {
                            output.write(byte: UInt8(ascii: "?"))
                            continue
                        }
                        write(value, isRole: keyIsRole[key])
                    }
                }
            }
        }

        func write(_ value: EvidenceReader.Value, isRole: Bool) {
            switch evidence.tag(of: value) {
            case EvidenceTag.string where isRole:
                text(MessageTemplate.roleWord(String(decoding: evidence.text(of: value), as: UTF8.self)))
            case EvidenceTag.string:
                if escaped {
                    JSON.writeStringContents(bytes: evidence.text(of: value), to: &output)
                } else {
                    output.write(bytes: UnsafeRawBufferPointer(evidence.text(of: value)))
                }
            case EvidenceTag.int: JSON.writeInt(Int(truncatingIfNeeded: Int64(bitPattern: evidence.word(of: value))), to: &output)
            case EvidenceTag.number where Double(bitPattern: evidence.word(of: value)).isFinite:
                DecimalWriter.append(Double(bitPattern: evidence.word(of: value)), decimals: 3, to: &output)
            default: text(MessageTemplate.text(of: evidence.json(value)))
            }
        }
    }

    /// A role as a message says it (``Role/word``: the format's `other` is an "element");
    /// the evidence keeps the format's word.
    package static func roleWord(_ name: String) -> String { Role(name: name)?.word ?? name }

    /// How a piece of evidence reads in a message.
    package static func text(of value: JSON) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .number(let number): number.formattedForReport
        case .bool(let flag): flag ? "true" : "false"
        case .null: "unknown"
        case .array(let items): items.map(text(of:)).joined(separator: ", ")
        case .object: value.rendered()
        }
    }
}
