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
        for part in parts {
            switch part {
            case .literal(let plain, _): output.append(contentsOf: plain)
            case .placeholder(let key):
                if let value = evidence.first(where: { $0.0 == key })?.1 {
                    MessageTemplate.appendText(of: value, to: &output)
                } else {
                    output.append(UInt8(ascii: "?"))
                }
            }
        }
    }

    /// Writes the filled message as a JSON string (quoted and escaped) to `output`.
    func writeJSONString<Sink: ByteSink>(_ evidence: Evidence, to output: inout Sink) {
        output.write(byte: UInt8(ascii: "\""))
        for part in parts {
            switch part {
            case .literal(_, let escaped): output.write(contentsOf: escaped)
            case .placeholder(let key):
                switch evidence.first(where: { $0.0 == key })?.1 {
                case .string(let text)?: JSON.writeStringContents(text, to: &output)
                case .int(let number)?: JSON.writeInt(number, to: &output)
                case .number(let number)? where number.isFinite: DecimalWriter.append(number, decimals: 3, into: &output)
                case let value?: JSON.writeStringContents(MessageTemplate.text(of: value), to: &output)
                case nil: output.write(byte: UInt8(ascii: "?"))
                }
            }
        }
        output.write(byte: UInt8(ascii: "\""))
    }

    /// ``text(of:)`` appended as UTF-8, without an intermediate string for the common cases.
    static func appendText(of value: JSON, to output: inout [UInt8]) {
        switch value {
        case .string(let text): output.append(contentsOf: text.utf8)
        case .int(let number): JSON.writeInt(number, to: &output)
        case .number(let number) where number.isFinite: DecimalWriter.append(number, decimals: 3, to: &output)
        default: output.append(contentsOf: text(of: value).utf8)
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
