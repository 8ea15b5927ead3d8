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
    }

    /// Appends the filled message to `output` as UTF-8.
    public func append(_ evidence: Evidence, to output: inout [UInt8]) {
        fill(evidence, to: &output, escaped: false)
    }

    /// Writes the filled message as a JSON string (quoted and escaped) to `output`.
    package func writeJSONString<Sink: ByteSink>(_ evidence: Evidence, to output: inout Sink) {
        output.write(byte: UInt8(ascii: "\""))
        fill(evidence, to: &output, escaped: true)
        output.write(byte: UInt8(ascii: "\""))
    }

    /// The filled message, as it reads or (`escaped`) as the contents of a JSON string.
    /// Numbers never need escaping; strings are written without an intermediate copy.
    private func fill<Sink: ByteSink>(_ evidence: Evidence, to output: inout Sink, escaped: Bool) {
        func text(_ text: String) {
            if escaped { JSON.writeStringContents(text, to: &output) } else { output.write(utf8: text) }
        }
        // Placeholders mostly name the evidence in its own order: each search starts just
        // after the last key found, so it usually succeeds at its first comparison.
        var cursor = 0
        func value(_ key: EvidenceKey) -> JSON? {
            var index = cursor
            for _ in 0..<evidence.count {
                if index >= evidence.count { index = 0 }
                if evidence[index].0 == key {
                    cursor = index + 1
                    return evidence[index].1
                }
                index += 1
            }
            return nil
        }
        let literals = escaped ? escapedBytes : plainBytes
        for part in parts {
            switch part {
            case .literal(let plain, let escapedRange):
                literals.withUnsafeBytes { output.write(bytes: UnsafeRawBufferPointer(rebasing: $0[escaped ? escapedRange : plain])) }
            case .placeholder(let key):
                switch value(keys[key]) {
                case .string(let value)? where keys[key] == .role: text(MessageTemplate.roleWord(value))
                case .string(let value)?: text(value)
                case .int(let number)?: JSON.writeInt(number, to: &output)
                case .number(let number)? where number.isFinite: DecimalWriter.append(number, decimals: 3, to: &output)
                case let value?: text(MessageTemplate.text(of: value))
                case nil: output.write(byte: UInt8(ascii: "?"))
                }
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
