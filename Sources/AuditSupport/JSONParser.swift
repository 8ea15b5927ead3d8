/// A small, strict RFC 8259 JSON reader that keeps object key order and reports errors
/// with line and column. Used for rule-set files, baselines and the daemon's answers.
public struct JSONParser {
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int
        public var description: String { "\(line):\(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    public static func parse(_ text: String) throws(JSONParser.Error) -> JSON {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParser.Error) -> JSON {
        var parser = JSONParser(bytes: bytes)
        parser.skipBlanks()
        let value = try parser.value()
        parser.skipBlanks()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> Error {
        var line = 1, column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return Error(message: message, line: line, column: column)
    }

    private mutating func skipBlanks() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value() throws(JSONParser.Error) -> JSON {
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ value: JSON) throws(JSONParser.Error) -> JSON {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected character; expected a JSON value")
        }
        index += expected.count
        return value
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` — no leading
    /// zeros (`01`), no `+1`, no `.5` or `5.`, no bare exponent.
    private mutating func number() throws(JSONParser.Error) -> JSON {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        func fail(_ message: String) -> JSONParser.Error {
            index = start
            return error(message)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else {
            throw fail("unexpected character; expected a JSON value")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (0x30...0x39).contains(bytes[index]) { throw fail("a JSON number has no leading zeros") }
        } else {
            _ = digits()
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw fail("a JSON number needs digits after its decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            isInteger = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("a JSON number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw fail("the JSON number \(text.prefix(40)) is out of range") }
        return .number(double)
    }

    private mutating func string() throws(JSONParser.Error) -> String {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count,
                        bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let next = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            // A high surrogate alone (U+FFFD below); the escape after it is
                            // read as itself. Combined, a low below 0xDC00 trapped.
                            index = next
                        }
                    }
                    // A surrogate alone is no scalar: U+FFFD.
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(character)).utf8))
                default:
                    throw error("invalid escape in string")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                out.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONParser.Error) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            value <<= 4
            switch byte {
            case 0x30...0x39: value |= UInt32(byte - 0x30)
            case 0x41...0x46: value |= UInt32(byte - 0x37)
            case 0x61...0x66: value |= UInt32(byte - 0x57)
            default: throw error("bad \\u escape")
            }
        }
        index += 4
        return value
    }

    private mutating func array() throws(JSONParser.Error) -> JSON {
        index += 1
        depth += 1
        guard depth < 512 else { throw error("JSON nested too deeply") }
        defer { depth -= 1 }
        var items: [JSON] = []
        skipBlanks()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipBlanks()
            items.append(try value())
            skipBlanks()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']' in array")
        }
    }

    private mutating func object() throws(JSONParser.Error) -> JSON {
        index += 1
        depth += 1
        guard depth < 512 else { throw error("JSON nested too deeply") }
        defer { depth -= 1 }
        var members: [(String, JSON)] = []
        skipBlanks()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipBlanks()
            members.append((key, try value()))
            skipBlanks()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}' in object")
        }
    }
}

extension JSON {
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: Int(value)
        default: nil
        }
    }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var arrayValue: [JSON]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: [(String, JSON)]? { if case .object(let value) = self { value } else { nil } }
}
