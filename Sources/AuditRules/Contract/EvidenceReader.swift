/// Reads one finding's encoded evidence (``EvidenceStore``) in place. Its bytes were
/// written by the store's own encoder: a length that runs past the end reads as the end,
/// never past it.
struct EvidenceReader {
    let bytes: UnsafeRawBufferPointer

    /// A value's place: where its tag is.
    struct Value {
        let offset: Int
    }

    /// Calls `body` with each entry's key and value, in order, until it returns false.
    func forEachEntry(_ body: (_ key: UnsafeRawBufferPointer, _ value: Value) -> Bool) {
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            let keyEnd = min(offset + 1 + length, bytes.count)
            let key = UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<keyEnd])
            guard keyEnd < bytes.count, body(key, Value(offset: keyEnd)) else { return }
            offset = end(of: Value(offset: keyEnd))
        }
    }

    /// The value of `key`, if the evidence has it.
    func value(of key: String) -> Value? {
        key.withUTF8Bytes { value(ofUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// The value of the key whose UTF-8 is `wanted`, if the evidence has it.
    func value(ofUTF8 wanted: UnsafeRawBufferPointer) -> Value? {
        var found: Value?
        forEachEntry { key, value in
            if key.hasSameBytes(as: wanted) {
                found = value
                return false
            }
            return true
        }
        return found
    }

    func tag(of value: Value) -> UInt8 { bytes[value.offset] }

    /// The 8-byte payload of an int or number.
    func word(of value: Value) -> UInt64 {
        guard value.offset + 9 <= bytes.count else { return 0 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: value.offset + 1, as: UInt64.self))
    }

    /// The UTF-8 of a string value.
    func text(of value: Value) -> UnsafeBufferPointer<UInt8> { lengthPrefixed(at: value.offset + 1) }

    private func length(at offset: Int) -> Int {
        guard offset + 4 <= bytes.count else { return 0 }
        return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    private func lengthPrefixed(at offset: Int) -> UnsafeBufferPointer<UInt8> {
        let start = min(offset + 4, bytes.count)
        let end = min(start + length(at: offset), bytes.count)
        return UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[start..<end])
    }

    /// Where the value after `value` starts.
    func end(of value: Value) -> Int {
        switch tag(of: value) {
        case EvidenceTag.int, EvidenceTag.number: return min(value.offset + 9, bytes.count)
        case EvidenceTag.string: return min(value.offset + 5 + length(at: value.offset + 1), bytes.count)
        case EvidenceTag.array, EvidenceTag.object: return forEachChild(of: value) { _, _ in }
        default: return min(value.offset + 1, bytes.count)
        }
    }

    /// Calls `body` with each item of an array value (its name `nil`) or each member of an
    /// object value (with its name), in order; returns where the value ends. One walk for
    /// skipping, decoding and writing a composite value.
    @discardableResult
    private func forEachChild(of value: Value, _ body: (_ name: UnsafeBufferPointer<UInt8>?, _ child: Value) -> Void) -> Int {
        let named = tag(of: value) == EvidenceTag.object
        var remaining = length(at: value.offset + 1)
        var offset = value.offset + 5
        while remaining > 0, offset < bytes.count {
            remaining -= 1
            var name: UnsafeBufferPointer<UInt8>?
            if named {
                name = lengthPrefixed(at: offset)
                offset += 4 + length(at: offset)
                guard offset < bytes.count else { break }
            }
            body(name, Value(offset: offset))
            offset = end(of: Value(offset: offset))
        }
        return min(offset, bytes.count)
    }

    /// The value as a `JSON` value.
    func json(_ value: Value) -> JSON {
        guard value.offset < bytes.count else { return .null }
        switch tag(of: value) {
        case EvidenceTag.false: return .bool(false)
        case EvidenceTag.true: return .bool(true)
        case EvidenceTag.int: return .int(Int(truncatingIfNeeded: Int64(bitPattern: word(of: value))))
        case EvidenceTag.number: return .number(Double(bitPattern: word(of: value)))
        case EvidenceTag.string: return .string(String(decoding: text(of: value), as: UTF8.self))
        case EvidenceTag.array:
            var items: [JSON] = []
            forEachChild(of: value) { _, item in items.append(json(item)) }
            return .array(items)
        case EvidenceTag.object:
            var members: [(String, JSON)] = []
            forEachChild(of: value) { name, member in members.append((name.map { String(decoding: $0, as: UTF8.self) } ?? "", json(member))) }
            return .object(members)
        default: return .null
        }
    }

    /// Every entry, as the rule reported them.
    var evidence: Evidence {
        var entries: Evidence = []
        forEachEntry { key, value in
            entries.append((EvidenceKey(rawValue: String(decoding: key, as: UTF8.self)), json(value)))
            return true
        }
        return entries
    }

    /// The value as compact JSON, as ``JSON/write(to:pretty:indent:)`` writes it.
    func writeJSON<Sink: ByteSink>(_ value: Value, to out: inout Sink) {
        guard value.offset < bytes.count else { return out.write("null") }
        switch tag(of: value) {
        case EvidenceTag.false: out.write("false")
        case EvidenceTag.true: out.write("true")
        case EvidenceTag.int: JSON.writeInt(Int(truncatingIfNeeded: Int64(bitPattern: word(of: value))), to: &out)
        case EvidenceTag.number: JSON.writeNumber(Double(bitPattern: word(of: value)), to: &out)
        case EvidenceTag.string: JSON.writeString(bytes: text(of: value), to: &out)
        case EvidenceTag.array, EvidenceTag.object:
            let array = tag(of: value) == EvidenceTag.array
            out.write(byte: UInt8(ascii: array ? "[" : "{"))
            var first = true
            forEachChild(of: value) { name, child in
                if !first { out.write(byte: UInt8(ascii: ",")) }
                first = false
                if let name {
                    JSON.writeString(bytes: name, to: &out)
                    out.write(byte: UInt8(ascii: ":"))
                }
                writeJSON(child, to: &out)
            }
            out.write(byte: UInt8(ascii: array ? "]" : "}"))
        default: out.write("null")
        }
    }

    /// The evidence as a compact JSON object, its keys as members.
    func writeObject<Sink: ByteSink>(to out: inout Sink) {
        out.write(byte: UInt8(ascii: "{"))
        var first = true
        forEachEntry { key, value in
            if !first { out.write(byte: UInt8(ascii: ",")) }
            first = false
            JSON.writeString(bytes: key.bindMemory(to: UInt8.self), to: &out)
            out.write(byte: UInt8(ascii: ":"))
            writeJSON(value, to: &out)
            return true
        }
        out.write(byte: UInt8(ascii: "}"))
    }
}
