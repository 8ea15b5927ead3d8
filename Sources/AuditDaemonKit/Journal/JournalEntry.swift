import AuditCore

/// What one caller appends to the journal: a number of records, each written as the
/// fields of a JSON object. The journal puts `{"seq":N,"time":"…",` before each and `}`
/// and a newline after, so entries write straight into the journal's buffer.
public protocol JournalEntry: Sendable {
    var recordCount: Int { get }
    /// Appends the fields of record `index` (no braces, no leading comma) to `out`.
    func writeRecord(_ index: Int, to out: inout [UInt8])
    /// About how many bytes the fields of all records take (the journal sizes its write
    /// buffer from it).
    var estimatedBytes: Int { get }
}

extension JSON {
    /// The members of an object as JSON without its braces, for joining onto other fields.
    static func fieldBytes(_ members: [(String, JSON)]) -> ArraySlice<UInt8> {
        let object = JSON.object(members).bytes
        return object[1..<(object.count - 1)]
    }
}
