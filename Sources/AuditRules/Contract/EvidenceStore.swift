#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The evidence of one rule run's findings, encoded one after another in one buffer; each
/// finding keeps the range of its own (``Finding``). A finding's evidence as an array of
/// key and value pairs cost a heap block of 150–200 bytes per finding, which a screen of
/// 100,000 findings held at its peak beside the report rendered from it; encoded here it
/// is the bytes of its keys and values, about 40 for a typical finding.
///
/// The encoding, per entry: the key (a length byte, then its UTF-8), then its value — a tag
/// byte, then for an int or a number 8 bytes, for a string a 4-byte length and its UTF-8,
/// for an array a 4-byte count and its values, for an object a 4-byte count and its
/// members (a 4-byte length, the name, the value). Integers are little-endian.
///
/// A run appends on its one thread; once the run has returned its findings the store is
/// only read, by any thread — hence `@unchecked Sendable`.
public final class EvidenceStore: @unchecked Sendable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written.
    public private(set) var count = 0

    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 16)
        // `malloc`, so that growing is a `realloc` (below).
        guard let memory = malloc(self.capacity) else { fatalError("evidence store: out of memory (\(self.capacity) bytes)") }
        base = memory
    }

    deinit { free(base) }

    /// Appends `evidence` and returns where it is.
    package func append(_ evidence: Evidence) -> Range<Int> {
        let start = count
        for index in evidence.indices {
            evidence[index].0.rawValue.withUTF8Bytes { key in
                let length = min(key.count, 255)
                put(UInt8(length))
                put(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(key)[0..<length]))
            }
            put(evidence[index].1)
        }
        return start..<count
    }

    /// Calls `body` with a reader of the evidence in `range`: valid for the call only.
    func read<Result>(_ range: Range<Int>, _ body: (EvidenceReader) -> Result) -> Result {
        body(EvidenceReader(bytes: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)))
    }

    // MARK: Writing

    private func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        var grown = capacity * 2
        while grown < count + more { grown *= 2 }
        // `realloc`: a large store moves by remapping its pages, not by a copy beside the
        // old one (a finding-heavy rule's store doubling from 4 to 8 MB held both, the
        // audit's peak on a 100,000-element screen).
        guard let fresh = realloc(base, grown) else { fatalError("evidence store: out of memory (\(grown) bytes)") }
        base = fresh
        capacity = grown
    }

    private func put(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    private func put(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
    }

    private func put(word value: UInt64) {
        reserve(8)
        (base + count).storeBytes(of: value.littleEndian, as: UInt64.self)
        count += 8
    }

    private func put(length value: Int) {
        reserve(4)
        (base + count).storeBytes(of: UInt32(clamping: value).littleEndian, as: UInt32.self)
        count += 4
    }

    private func put(text: String) {
        text.withUTF8Bytes { bytes in
            put(length: bytes.count)
            put(UnsafeRawBufferPointer(bytes))
        }
    }

    private func put(_ value: JSON) {
        switch value {
        case .null: put(EvidenceTag.null)
        case .bool(let flag): put(flag ? EvidenceTag.true : EvidenceTag.false)
        case .int(let number):
            put(EvidenceTag.int)
            put(word: UInt64(bitPattern: Int64(number)))
        case .number(let number):
            put(EvidenceTag.number)
            put(word: number.bitPattern)
        case .string(let text):
            put(EvidenceTag.string)
            put(text: text)
        case .array(let items):
            put(EvidenceTag.array)
            put(length: items.count)
            for item in items { put(item) }
        case .object(let members):
            put(EvidenceTag.object)
            put(length: members.count)
            for member in members {
                put(text: member.0)
                put(member.1)
            }
        }
    }
}

/// The tag byte before each encoded value (``EvidenceStore``).
enum EvidenceTag {
    static let null: UInt8 = 0
    static let `false`: UInt8 = 1
    static let `true`: UInt8 = 2
    static let int: UInt8 = 3
    static let number: UInt8 = 4
    static let string: UInt8 = 5
    static let array: UInt8 = 6
    static let object: UInt8 = 7
}
