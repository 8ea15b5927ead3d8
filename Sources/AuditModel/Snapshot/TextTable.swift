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

    public init() {}

    package mutating func reserve(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
        HugePages.advise(capacityOf: &bytes)
    }

    /// Appends UTF-8 bytes and returns their reference.
    public mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) -> TextRef {
        let offset = UInt32(truncatingIfNeeded: bytes.count)
        bytes.append(contentsOf: buffer)
        return TextRef(offset: offset, count: UInt32(truncatingIfNeeded: buffer.count))
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
