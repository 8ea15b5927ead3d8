import AuditSupport

/// A reference to a string kept in a snapshot's ``TextTable``: eight bytes instead of a
/// heap-allocated `String` per attribute.
public struct TextRef: Sendable, Hashable {
    public let offset: UInt32
    public let count: UInt32

    /// No value: the attribute was absent.
    public static let absent = TextRef(offset: .max, count: 0)

    public var isAbsent: Bool { offset == .max }
}

/// The text of every string attribute of a snapshot, stored back to back as UTF-8.
public struct TextTable: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// While a parser fills the table: the bytes of its source, and how many it has read
    /// (``noteRead(_:of:)``), so that a full table grows by a guess of the text still to
    /// come rather than doubling — the table is held through the audit, and doubling left
    /// up to half of it empty (1.9 MB on a 100,000-element screen).
    private var sourceBytes = 0
    private var sourceRead = 0

    public init() {}

    /// Where the parser filling the table stands: `read` bytes of a source of `total`.
    package mutating func noteRead(_ read: Int, of total: Int) {
        sourceRead = read
        sourceBytes = total
    }

    package mutating func reserve(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
        HugePages.advise(capacityOf: &bytes)
    }

    /// Appends UTF-8 bytes and returns their reference.
    public mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) -> TextRef {
        let offset = UInt32(truncatingIfNeeded: bytes.count)
        if bytes.count + buffer.count > bytes.capacity { grow(toHold: bytes.count + buffer.count) }
        bytes.append(contentsOf: buffer)
        return TextRef(offset: offset, count: UInt32(truncatingIfNeeded: buffer.count))
    }

    /// Room for `needed` bytes and, when the source's share read is known, the text still
    /// to come at the rate so far (and a sixteenth more); at least a quarter more.
    private mutating func grow(toHold needed: Int) {
        bytes.reserveCapacity(GrowthGuess.capacity(count: bytes.count, needed: needed, read: sourceRead, of: sourceBytes, slack: 16, extra: 64))
        HugePages.advise(capacityOf: &bytes)
    }

    /// Appends a string and returns its reference.
    public mutating func append(_ string: String) -> TextRef {
        string.withUTF8Bytes { append($0) }
    }

    /// The string behind a reference; `nil` when absent.
    public func string(_ ref: TextRef) -> String? {
        if ref.isAbsent { return nil }
        let start = Int(ref.offset)
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + Int(ref.count)]), as: UTF8.self)
        }
    }

    /// FNV-1a hash of the referenced bytes; 0 when absent.
    public func hash(_ ref: TextRef) -> UInt64 {
        if ref.isAbsent { return 0 }
        var hash = FNV1a()
        let start = Int(ref.offset)
        hash.add(bytes[start..<start + Int(ref.count)])
        return hash.value | 1
    }

    /// Calls `body` with the referenced bytes (empty when absent), without building a String.
    @inlinable public func withBytes<T>(_ ref: TextRef, _ body: (ArraySlice<UInt8>) -> T) -> T {
        if ref.isAbsent { return body([]) }
        let start = Int(ref.offset)
        return body(bytes[start..<start + Int(ref.count)])
    }

    /// Appends the referenced bytes to `out`.
    public func appendBytes<Sink: ByteSink>(_ ref: TextRef, to out: inout Sink) {
        if ref.isAbsent { return }
        let start = Int(ref.offset)
        out.write(contentsOf: bytes[start..<start + Int(ref.count)])
    }

    /// Whether two references hold the same text as their `String`s would compare
    /// (canonical equivalence; both absent is the same, one absent is not): equal bytes
    /// are the same text, different ASCII bytes are not, and only the rest is decoded.
    public func sameText(_ first: TextRef, _ second: TextRef) -> Bool {
        if sameBytes(first, second) { return true }
        if first.isAbsent || second.isAbsent { return false }
        let bothASCII = bytes.withUnsafeBytes { table in
            Self.isASCII(UnsafeRawBufferPointer(rebasing: table[Int(first.offset)..<Int(first.offset) + Int(first.count)]))
                && Self.isASCII(UnsafeRawBufferPointer(rebasing: table[Int(second.offset)..<Int(second.offset) + Int(second.count)]))
        }
        return !bothASCII && string(first) == string(second)
    }

    /// Whether two references hold the same bytes (both absent is the same, one absent is
    /// not): no decoding, so different bytes of one canonical text are different here.
    public func sameBytes(_ first: TextRef, _ second: TextRef) -> Bool {
        if first.isAbsent || second.isAbsent { return first.isAbsent && second.isAbsent }
        if first == second { return true }
        guard first.count == second.count else { return false }
        return bytes.withUnsafeBytes { table in
            UnsafeRawBufferPointer(rebasing: table[Int(first.offset)..<Int(first.offset) + Int(first.count)])
                .hasSameBytes(as: UnsafeRawBufferPointer(rebasing: table[Int(second.offset)..<Int(second.offset) + Int(second.count)]))
        }
    }

    /// Whether the referenced text starts with `prefix` as `String.hasPrefix` says (false
    /// when absent). `prefix` is ASCII not ending in a carriage return: when the text's
    /// bytes up to one past the prefix are ASCII too, comparing bytes gives `hasPrefix`'s
    /// answer; anything else (a combining mark after the prefix, non-ASCII letters) is
    /// decoded.
    public func hasPrefix(_ ref: TextRef, _ prefix: StaticString) -> Bool {
        if ref.isAbsent { return false }
        let decided: Bool? = bytes.withUnsafeBytes { table in
            let text = UnsafeRawBufferPointer(rebasing: table[Int(ref.offset)..<Int(ref.offset) + Int(ref.count)])
            let length = prefix.utf8CodeUnitCount
            guard Self.isASCII(UnsafeRawBufferPointer(rebasing: text.prefix(length + 1))) else { return nil }
            return text.count >= length && UnsafeRawBufferPointer(rebasing: text.prefix(length)).hasSameBytes(as: prefix)
        }
        return decided ?? (string(ref)?.hasPrefix(prefix.description) ?? false)
    }

    private static func isASCII(_ run: UnsafeRawBufferPointer) -> Bool {
        for byte in run where byte >= 0x80 { return false }
        return true
    }

    /// True when the referenced text is absent or only white space.
    public func isBlank(_ ref: TextRef) -> Bool {
        if ref.isAbsent { return true }
        // Indexed, not sliced: a slice would retain the table's storage on every call, and
        // several rules ask this of every element.
        var index = Int(ref.offset)
        let end = index + Int(ref.count)
        while index < end {
            let byte = bytes[index]
            index += 1
            if byte == 0x20 || (0x09...0x0D).contains(byte) { continue }
            // Non-breaking and other Unicode spaces are checked on the decoded string.
            if byte >= 0x80 { return string(ref)?.allSatisfy(\.isWhitespace) ?? true }
            return false
        }
        return true
    }
}
