import AuditCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level fields of one journal line that the trend index keeps, read without
/// building the record: members are walked at the top level, nested objects and arrays
/// (evidence, frames, transcripts) skipped by their brackets, and only the strings asked
/// for decoded. A line that is not one JSON object gives nil. The transcript's digest is
/// the one nested value read (`"transcript":{…"digest":"…"}`).
struct JournalLineFields {
    /// The line read; the ranges below index it (valid while the line's bytes are).
    let line: UnsafeRawBufferPointer
    var seq: Int?
    /// Where each string value lies between its quotes (escapes as written); nil when
    /// absent or null.
    private var ranges = [Range<Int>?](repeating: nil, count: Field.allCases.count)
    var digest: String?
    /// The transcript's speech, stop by stop, when the record carries it.
    var speech: [String]?

    /// The string fields the index keeps.
    enum Field: Int, CaseIterable {
        case type, audit, app, build, screen, time, fingerprint, defect, rule, severity, path, message, element
    }

    static let names: [String: Field] = [
        "type": .type, "audit": .audit, "app": .app, "build": .build, "screen": .screen, "time": .time,
        "fingerprint": .fingerprint, "defect": .defect, "rule": .rule, "severity": .severity, "path": .path, "message": .message,
        "element": .element,
    ]

    /// The field a key names, compared as bytes (no string made per key).
    static func field(named key: UnsafeRawBufferPointer) -> Field? {
        for (name, field) in byteNames where name.count == key.count && name.withUnsafeBytes({ $0.hasSameBytes(as: key) }) { return field }
        return nil
    }

    private static let byteNames: [([UInt8], Field)] = names.map { (Array($0.key.utf8), $0.value) }

    /// The field's value, unescaped.
    subscript(_ field: Field) -> String? {
        guard let range = ranges[field.rawValue] else { return nil }
        return Self.decode(UnsafeRawBufferPointer(rebasing: line[range]))
    }

    /// Whether the field's raw bytes are `text` (no escapes in `text`).
    func `is`(_ field: Field, _ text: StaticString) -> Bool {
        guard let range = ranges[field.rawValue] else { return false }
        return UnsafeRawBufferPointer(rebasing: line[range]).hasSameBytes(as: text)
    }

    /// The field's raw bytes between its quotes (escapes as written).
    func raw(_ field: Field) -> UnsafeRawBufferPointer? {
        ranges[field.rawValue].map { UnsafeRawBufferPointer(rebasing: line[$0]) }
    }

    /// Appends the field's value, unescaped, to `out` (nothing when absent).
    func appendValue(_ field: Field, to out: inout [UInt8]) {
        guard let raw = raw(field) else { return }
        if !raw.contains(UInt8(ascii: "\\")) {
            out.append(contentsOf: raw)
        } else if let text = Self.decode(raw) {
            out.append(contentsOf: text.utf8)
        }
    }

    /// A string's bytes between its quotes, unescaped (JSON's parser for the rare string
    /// with escapes).
    static func decode(_ raw: UnsafeRawBufferPointer) -> String? {
        if !raw.contains(UInt8(ascii: "\\")) { return String(decoding: raw, as: UTF8.self) }
        let quoted = [UInt8(ascii: "\"")] + Array(raw) + [UInt8(ascii: "\"")]
        return (try? JSONParser.parse(quoted))?.stringValue
    }

    /// Reads `line` (one journal record, without its newline).
    init?(_ line: UnsafeRawBufferPointer) {
        self.line = line
        var scanner = Scanner(bytes: line)
        guard scanner.expect(UInt8(ascii: "{")) else { return nil }
        if scanner.expect(UInt8(ascii: "}")) { return }
        while true {
            guard let key = scanner.stringRange() else { return nil }
            guard scanner.expect(UInt8(ascii: ":")) else { return nil }
            let name = UnsafeRawBufferPointer(rebasing: line[key])
            if name.hasSameBytes(as: "seq") {
                guard let number = scanner.integer() else { return nil }
                seq = number
            } else if name.hasSameBytes(as: "transcript") {
                guard let transcript = scanner.transcript() else { return nil }
                digest = transcript.digest
                speech = transcript.speech
            } else if scanner.peek() == UInt8(ascii: "\""), let field = Self.field(named: name) {
                guard let range = scanner.stringRange() else { return nil }
                ranges[field.rawValue] = range
            } else {
                guard scanner.skipValue() else { return nil }
            }
            if scanner.expect(UInt8(ascii: ",")) { continue }
            guard scanner.expect(UInt8(ascii: "}")) else { return nil }
            return
        }
    }

    /// A cursor over the line's bytes.
    struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0D || bytes[at] == 0x0A { at += 1 }
        }

        mutating func peek() -> UInt8? {
            skipSpace()
            return at < bytes.count ? bytes[at] : nil
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            at += 1
            return true
        }

        /// The bytes between a string's quotes (escapes left as they are).
        mutating func stringRange() -> Range<Int>? {
            guard expect(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return nil }
            let start = at
            // The next quote by `memchr`; it ends the string unless an odd number of
            // backslashes comes before it.
            while at < bytes.count {
                guard let found = memchr(base + at, Int32(UInt8(ascii: "\"")), bytes.count - at) else { break }
                let quote = base.distance(to: UnsafeRawPointer(found))
                var backslashes = 0
                while quote - backslashes - 1 >= start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                at = quote + 1
                if backslashes % 2 == 0 { return start..<quote }
            }
            at = bytes.count
            return nil
        }

        /// A string value, unescaped.
        mutating func string() -> String? {
            guard let range = stringRange() else { return nil }
            return JournalLineFields.decode(UnsafeRawBufferPointer(rebasing: bytes[range]))
        }

        mutating func integer() -> Int? {
            skipSpace()
            var value = 0
            var digits = 0
            while at < bytes.count, bytes[at] >= 0x30, bytes[at] <= 0x39, digits < 18 {
                value = value * 10 + Int(bytes[at] - 0x30)
                at += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }

        /// Skips one value of any kind: strings by their quotes, objects and arrays by
        /// their brackets (strings inside honoured), scalars to the next delimiter.
        mutating func skipValue() -> Bool {
            guard let first = peek() else { return false }
            if first == UInt8(ascii: "\"") { return stringRange() != nil }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var depth = 0
                while at < bytes.count {
                    switch bytes[at] {
                    case UInt8(ascii: "\""):
                        guard stringRange() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            at += 1
                            return true
                        }
                    default: break
                    }
                    at += 1
                }
                return false
            }
            while at < bytes.count, bytes[at] != UInt8(ascii: ","), bytes[at] != UInt8(ascii: "}"), bytes[at] != UInt8(ascii: "]") { at += 1 }
            return true
        }

        /// The string members of the array starting here, unescaped, into `values` (other
        /// members skipped; `nil` when a string's escapes do not decode). False when the
        /// array is malformed. Read in place: a JSON parse of the array built a value per
        /// stop and copied its bytes first.
        mutating func strings(into values: inout [String]?) -> Bool {
            guard expect(UInt8(ascii: "[")) else { return false }
            var strings: [String]? = []
            defer { values = strings }
            if expect(UInt8(ascii: "]")) { return true }
            while true {
                if peek() == UInt8(ascii: "\"") {
                    guard let range = stringRange() else { return false }
                    if let value = JournalLineFields.decode(UnsafeRawBufferPointer(rebasing: bytes[range])) {
                        strings?.append(value)
                    } else {
                        strings = nil
                    }
                } else if !skipValue() {
                    return false
                }
                if expect(UInt8(ascii: ",")) { continue }
                return expect(UInt8(ascii: "]"))
            }
        }

        /// In the object starting here, the members `digest` (a string) and `speech` (an
        /// array of strings); the rest skipped. A value that is not an object gives nils.
        mutating func transcript() -> (digest: String?, speech: [String]?)? {
            guard peek() == UInt8(ascii: "{") else { return skipValue() ? (nil, nil) : nil }
            at += 1
            var digest: String?
            var speech: [String]?
            if expect(UInt8(ascii: "}")) { return (nil, nil) }
            while true {
                guard let key = stringRange(), expect(UInt8(ascii: ":")) else { return nil }
                let name = UnsafeRawBufferPointer(rebasing: bytes[key])
                if name.hasSameBytes(as: "digest"), peek() == UInt8(ascii: "\"") {
                    digest = string()
                } else if name.hasSameBytes(as: "speech"), peek() == UInt8(ascii: "[") {
                    guard strings(into: &speech) else { return nil }
                } else if !skipValue() {
                    return nil
                }
                if expect(UInt8(ascii: ",")) { continue }
                return expect(UInt8(ascii: "}")) ? (digest, speech) : nil
            }
        }
    }
}
