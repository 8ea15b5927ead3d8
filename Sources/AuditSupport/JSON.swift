/// A JSON value with ordered object keys, written by hand (Foundation's encoder is slow
/// here and does not keep key order). Output is deterministic.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value of `key` in an object, `nil` otherwise.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    /// Serialises compactly (one line), or indented by two spaces when `pretty`.
    public func rendered(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact serialisation (or, when `pretty`, one indented by two spaces)
    /// to `out`.
    public func write<Sink: ByteSink>(to out: inout Sink, pretty: Bool = false, indent: Int = 0) {
        switch self {
        case .null: out.write("null")
        case .bool(let value): out.write(value ? "true" : "false")
        case .int(let value): JSON.writeInt(value, to: &out)
        case .number(let value): JSON.writeNumber(value, to: &out)
        case .string(let value): JSON.writeString(value, to: &out)
        case .array(let items):
            out.write(byte: UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { out.write(byte: UInt8(ascii: ",")) }
                if pretty { JSON.newline(&out, indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty, !items.isEmpty { JSON.newline(&out, indent) }
            out.write(byte: UInt8(ascii: "]"))
        case .object(let members) where !pretty:
            JSON.writeObject(members, to: &out)
        case .object(let members):
            out.write(byte: UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { out.write(byte: UInt8(ascii: ",")) }
                if pretty { JSON.newline(&out, indent + 1) }
                JSON.writeString(member.0, to: &out)
                out.write(byte: UInt8(ascii: ":"))
                if pretty { out.write(byte: UInt8(ascii: " ")) }
                member.1.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty, !members.isEmpty { JSON.newline(&out, indent) }
            out.write(byte: UInt8(ascii: "}"))
        }
    }

    /// A compact object straight from its members, without wrapping them in a value first.
    public static func writeObject<Sink: ByteSink>(_ members: [(String, JSON)], to out: inout Sink) {
        out.write(byte: UInt8(ascii: "{"))
        for (offset, member) in members.enumerated() {
            if offset > 0 { out.write(byte: UInt8(ascii: ",")) }
            JSON.writeString(member.0, to: &out)
            out.write(byte: UInt8(ascii: ":"))
            member.1.write(to: &out)
        }
        out.write(byte: UInt8(ascii: "}"))
    }

    private static func newline<Sink: ByteSink>(_ out: inout Sink, _ indent: Int) {
        out.write(byte: UInt8(ascii: "\n"))
        for _ in 0..<indent { out.write("  ") }
    }

    /// Numbers: integers without a fraction, others with up to 4 decimals; non-finite
    /// values (never valid JSON) become `null`.
    @_specialize(exported:true,where Sink == [UInt8])
    @_specialize(exported:true,where Sink == ByteBuffer)
    public static func writeNumber<Sink: ByteSink>(_ value: Double, to out: inout Sink) {
        guard value.isFinite else { return out.write("null") }
        DecimalWriter.append(value, decimals: 4, to: &out)
    }

    /// Decimal digits of an integer, without building a `String`.
    public static func writeInt<Sink: ByteSink>(_ value: Int, to out: inout Sink) {
        if value < 0 { out.write(byte: UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        guard magnitude >= 10 else { return out.write(byte: UInt8(ascii: "0") + UInt8(magnitude)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            while magnitude > 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.write(bytes: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// RFC 8259 string escaping: quotes, backslash and control characters. Runs of bytes
    /// that need no escape are copied in one go.
    // Inlinable, so the writers of other modules specialise them for their sink (through
    // the protocol's witnesses, every run of bytes escaped was a call through a table).
    @inlinable
    public static func writeString<Sink: ByteSink>(_ value: String, to out: inout Sink) {
        value.withUTF8Bytes { writeString(bytes: $0, to: &out) }
    }

    /// ``writeString(_:to:)`` for UTF-8 bytes.
    @inlinable
    public static func writeString<Sink: ByteSink>(bytes: UnsafeBufferPointer<UInt8>, to out: inout Sink) {
        out.write(byte: UInt8(ascii: "\""))
        writeStringContents(bytes: bytes, to: &out)
        out.write(byte: UInt8(ascii: "\""))
    }

    /// The escaped contents of a JSON string, without the quotes.
    @inlinable
    public static func writeStringContents<Sink: ByteSink>(_ value: String, to out: inout Sink) {
        value.withUTF8Bytes { writeStringContents(bytes: $0, to: &out) }
    }

    /// ``writeStringContents(_:to:)`` for UTF-8 bytes.
    @inlinable
    public static func writeStringContents<Sink: ByteSink>(bytes: UnsafeBufferPointer<UInt8>, to out: inout Sink) {
        var runStart = 0
        var index = 0
        while true {
            index = firstEscape(in: bytes, from: index)
            guard index < bytes.count else { break }
            if runStart < index { out.write(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            appendEscape(of: bytes[index], to: &out)
            index += 1
            runStart = index
        }
        if runStart < bytes.count { out.write(UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }

    /// Whether a byte must be escaped: control characters, DEL, quote and backslash.
    @inline(__always)
    public static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }

    /// The index of the first byte from `start` that needs an escape, or `bytes.count`.
    /// Eight bytes at a time: most strings (paths, messages, ids) need none.
    public static func firstEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20, or equal to 0x22, 0x5C or 0x7F (a zero byte after XOR):
            // exact as a yes/no answer for the whole word.
            let below = (word &- ones &* 0x20) & ~word
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C), delete = word ^ (ones &* 0x7F)
            let zero = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((delete &- ones) & ~delete)
            if (below | zero) & highs != 0 { break }
            index += 8
        }
        while index < bytes.count, !needsEscape(bytes[index]) { index += 1 }
        return index
    }

    @usableFromInline
    static func appendEscape<Sink: ByteSink>(of byte: UInt8, to out: inout Sink) {
        out.write(byte: 0x5C)
        switch byte {
        case 0x22: out.write(byte: 0x22)
        case 0x5C: out.write(byte: 0x5C)
        case 0x0A: out.write(byte: UInt8(ascii: "n"))
        case 0x0D: out.write(byte: UInt8(ascii: "r"))
        case 0x09: out.write(byte: UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            out.write("u00")
            hex.withUTF8Buffer { digits in
                out.write(byte: digits[Int(byte >> 4)])
                out.write(byte: digits[Int(byte & 15)])
            }
        }
    }

    /// The compact serialisation as bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }
}

extension JSON {
    /// `.string` or `.null`.
    public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
}
