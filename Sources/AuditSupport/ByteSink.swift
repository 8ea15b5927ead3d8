/// Where report text is written: a byte array, a ``ByteBuffer``, or a file written as it
/// fills. The JSON and report writers are generic over it, so the same code fills all.
public protocol ByteSink {
    /// Bytes written so far.
    var count: Int { get }
    mutating func write(byte: UInt8)
    mutating func write(bytes: UnsafeRawBufferPointer)
}

/// A sink that keeps what was written, so a piece of it can be written again (the report
/// writer copies an element's fields, a kind's rule head, a repeated message and evidence).
public protocol ByteStore: ByteSink {
    /// Writes again the bytes written at `range` (which must lie within ``count``).
    mutating func writeAgain(_ range: Range<Int>)
}

extension ByteSink {
    @inline(__always)
    public mutating func write(_ buffer: UnsafeBufferPointer<UInt8>) { write(bytes: UnsafeRawBufferPointer(buffer)) }

    @inline(__always)
    public mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func write(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(bytes: $0) }
    }

    public mutating func write(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { write(bytes: $0) }
    }

    /// A string's UTF-8, as it is (no escaping).
    public mutating func write(utf8 text: String) {
        text.withUTF8Bytes { write($0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    public mutating func write(byte: UInt8) { append(byte) }
    public mutating func write(bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

extension Array: ByteStore where Element == UInt8 {
    public mutating func writeAgain(_ range: Range<Int>) {
        let end = count
        // Grown first, then copied within the one buffer: appending a slice of the array
        // to itself would copy the whole array (the slice shares its storage).
        append(contentsOf: repeatElement(0, count: range.count))
        withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            (base + end).copyMemory(from: base + range.lowerBound, byteCount: range.count)
        }
    }
}

/// A growable byte buffer for the report writer's hot path: appends are a bounds check
/// and a copy, without an array's uniqueness check and generic append on every call
/// (a fifth of the cost of writing a finding). Written by one thread, then handed over
/// and only read (the audit's chunks of findings), hence `@unchecked Sendable`.
public final class ByteBuffer: ByteStore, @unchecked Sendable {
    // Visible to inlined callers: a write is inlined into the report writer's
    // specialisation in another module, not called.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var used = 0
    @usableFromInline var capacity: Int

    /// Bytes written so far.
    @inlinable public var count: Int { used }

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
        HugePages.advise(base, count: self.capacity)
    }

    deinit { base.deallocate() }

    @inlinable @inline(__always)
    public func write(byte: UInt8) {
        if used == capacity { grow(to: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    public func write(bytes: UnsafeRawBufferPointer) {
        let length = bytes.count
        guard length > 0, let source = bytes.baseAddress else { return }
        if used + length > capacity { grow(to: used + length) }
        (base + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: length)
        used += length
    }

    @usableFromInline
    func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        HugePages.advise(grown, count: newCapacity)
        grown.update(from: base, count: used)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Calls `body` with the bytes written so far.
    /// Empties the buffer, keeping its memory for the next writes.
    public func removeAll() { used = 0 }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: used))
    }

    /// The bytes written since `start`.
    public func bytes(from start: Int = 0) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + start, count: used - start))
    }

    @inlinable @inline(__always)
    public func writeAgain(_ range: Range<Int>) {
        let length = range.count
        if used + length > capacity { grow(to: used + length) }
        (base + used).update(from: base + range.lowerBound, count: length)
        used += length
    }
}
