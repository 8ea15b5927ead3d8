/// What the trend index keeps of an audit as one text each (one row, one insert, however
/// many findings or stops): its findings — each finding's fingerprint, defect, rule,
/// severity, path, message and element id separated by U+001F and ended by U+001E — and its
/// transcript's speech, each stop ended by U+001E. Those two characters never occur in a
/// value (a value holding one has it replaced by a space).
enum IndexPacking {
    static let field: UInt8 = 0x1F
    static let record: UInt8 = 0x1E

    /// The fields of a journal finding record, packed, from the line's bytes.
    static func append(_ line: JournalLineFields, to out: inout [UInt8]) {
        for (position, name) in [JournalLineFields.Field.fingerprint, .defect, .rule, .severity, .path, .message, .element].enumerated() {
            if position > 0 { out.append(field) }
            let start = out.count
            line.appendValue(name, to: &out)
            // Unescaped, a value may hold the separators: never let it split the record.
            out.withUnsafeMutableBufferPointer { bytes in
                for index in start..<bytes.count where bytes[index] <= field && (bytes[index] == field || bytes[index] == record) {
                    bytes[index] = 0x20
                }
            }
        }
        out.append(record)
    }

    /// The findings in `packed`.
    static func unpack(_ packed: String) -> [TrendStore.Finding] {
        var findings: [TrendStore.Finding] = []
        for entry in packed.utf8.split(separator: record, omittingEmptySubsequences: true) {
            let parts = entry.split(separator: field, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard parts.count == 7 else { continue }
            findings.append(
                TrendStore.Finding(
                    fingerprint: parts[0], defect: parts[1].isEmpty ? nil : parts[1], rule: parts[2], severity: parts[3],
                    path: parts[4].isEmpty ? nil : parts[4], message: parts[5], element: parts[6].isEmpty ? nil : parts[6]))
        }
        return findings
    }

    /// A transcript's speech, stop by stop, as one text (stops ended by U+001E).
    /// Packed byte by byte: U+001E is one byte in UTF-8 that no other character's bytes
    /// contain. Foundation's `replacingOccurrences` for each stop was half of what indexing
    /// an audit cost, and left a U+001E followed by a combining mark in the stop.
    static func packSpeech(_ speech: [String]) -> String {
        var packed: [UInt8] = []
        packed.reserveCapacity(speech.reduce(0) { $0 + $1.utf8.count + 1 })
        for stop in speech {
            let start = packed.count
            packed.append(contentsOf: stop.utf8)
            for index in start..<packed.count where packed[index] == record { packed[index] = 0x20 }
            packed.append(record)
        }
        return String(decoding: packed, as: UTF8.self)
    }

    static func unpackSpeech(_ packed: String) -> [String] {
        packed.split(separator: "\u{1E}", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
