import AuditCore

/// What one caller appends to the journal: a number of records, each written as the
/// fields of a JSON object. The journal puts `{"seq":N,"time":"…",` before each and `}`
/// and a newline after.
package protocol JournalEntry: Sendable {
    var recordCount: Int { get }
    /// Appends the fields of record `index` (no braces, no leading comma) to `out`.
    func writeRecord(_ index: Int, to out: inout [UInt8])
    /// Calls `body` with a function that gives each record's fields (what ``writeRecord(_:to:)``
    /// appends) as two runs of bytes, valid only during the call: the journal hands them
    /// to `writev` as they are, so large entries are not copied into a buffer first.
    func withRecordPieces<Result>(_ body: ((Int) -> RecordPieces) -> Result) -> Result
    /// About how many bytes the records take in the journal, for cutting a batch where
    /// the file rotates: their pieces and 48 bytes a record (the default counts them
    /// through ``withRecordPieces(_:)``).
    var byteCount: Int { get }
}

/// The fields of one journal record as two runs of bytes, written one after the other:
/// typically a `head` shared by many records and the record's own `body`.
package struct RecordPieces {
    package var head: UnsafeRawBufferPointer
    package var body: UnsafeRawBufferPointer

    package init(head: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) {
        self.head = head
        self.body = body
    }
}

extension JournalEntry {
    /// The bytes of the entry's records' fields and 48 a record for the journal's own,
    /// counted piece by piece.
    package var byteCount: Int {
        withRecordPieces { piece in
            (0..<recordCount).reduce(0) { total, index in
                let pieces = piece(index)
                return total + pieces.head.count + pieces.body.count + 48
            }
        }
    }

    /// Every record rendered with ``writeRecord(_:to:)`` into one buffer: for small entries.
    package func withRecordPieces<Result>(_ body: ((Int) -> RecordPieces) -> Result) -> Result {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for index in 0..<recordCount {
            let start = bytes.count
            writeRecord(index, to: &bytes)
            ranges.append(start..<bytes.count)
        }
        return bytes.withUnsafeBytes { raw in body { RecordPieces(head: UnsafeRawBufferPointer(rebasing: raw[ranges[$0]])) } }
    }
}

extension JSON {
    /// The members of an object as JSON without its braces, for joining onto other fields.
    static func fieldBytes(_ members: [(String, JSON)]) -> ArraySlice<UInt8> {
        let object = JSON.object(members).bytes
        return object[1..<(object.count - 1)]
    }
}
