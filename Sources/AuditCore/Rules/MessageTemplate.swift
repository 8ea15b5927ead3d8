/// A rule's message with `${key}` placeholders filled from a finding's evidence: strings
/// as they are, numbers in their shortest form (up to 3 decimals), lists joined by ", ",
/// a missing key as `?`. Compiled once per rule: the literal runs are kept both as they
/// are and already escaped for JSON, so a report writes a message without scanning the
/// template or escaping it again.
public final class MessageTemplate: Sendable {
    enum Part {
        case literal(plain: [UInt8], escaped: [UInt8])
        case placeholder(key: String)
    }

    /// The template as written (`"Contrast ${ratio}:1 is below ${required}:1"`).
    public let text: String
    let parts: [Part]

    public init(_ text: String) {
        self.text = text
        var parts: [Part] = []
        var literal: [UInt8] = []
        let bytes = Array(text.utf8)
        func flush() {
            guard !literal.isEmpty else { return }
            var escaped: [UInt8] = []
            literal.withUnsafeBufferPointer { JSON.writeStringContents(bytes: $0, to: &escaped) }
            parts.append(.literal(plain: literal, escaped: escaped))
            literal.removeAll()
        }
        var index = 0
        while index < bytes.count {
            // `${` … `}` is a placeholder; any other `$` is text.
            if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{"),
               let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) {
                flush()
                parts.append(.placeholder(key: String(decoding: bytes[(index + 2)..<close], as: UTF8.self)))
                index = close + 1
            } else {
                literal.append(bytes[index])
                index += 1
            }
        }
        flush()
        self.parts = parts
    }

    /// Appends the filled message to `output` as UTF-8.
    public func append(_ evidence: Evidence, to output: inout [UInt8]) {
        fill(evidence, to: &output, escaped: false)
    }

    /// Writes the filled message as a JSON string (quoted and escaped) to `output`.
    func writeJSONString<Sink: ByteSink>(_ evidence: Evidence, to output: inout Sink) {
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
        func value(_ key: String) -> JSON? {
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
        for part in parts {
            switch part {
            case .literal(let plain, let escapedBytes): output.write(contentsOf: escaped ? escapedBytes : plain)
            case .placeholder(let key):
                switch value(key) {
                case .string(let value)?: text(value)
                case .int(let number)?: JSON.writeInt(number, to: &output)
                case .number(let number)? where number.isFinite: DecimalWriter.append(number, decimals: 3, to: &output)
                case let value?: text(MessageTemplate.text(of: value))
                case nil: output.write(byte: UInt8(ascii: "?"))
                }
            }
        }
    }

    /// How a piece of evidence reads in a message.
    static func text(of value: JSON) -> String {
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
