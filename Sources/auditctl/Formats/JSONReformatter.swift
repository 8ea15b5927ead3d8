/// Re-indents compact JSON as `JSON.rendered(pretty: true)` would print it, byte by byte,
/// without building a tree: the daemon's reports can be tens of megabytes, and
/// `--format json` prints them as they came, with only the `file` member added.
enum JSONReformatter {
    /// Appends `compact` (one JSON value) pretty-printed at nesting `level` to `out`. When
    /// `firstMember` is given (`"key": value`, already formatted), it is put first in the
    /// outermost object.
    static func append(_ compact: ArraySlice<UInt8>, level: Int, firstMember: [UInt8]? = nil, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + compact.count * 2)
        var depth = level
        var index = compact.startIndex
        var pendingFirst = firstMember
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        func nextSignificant(after position: Int) -> UInt8? {
            var next = position + 1
            while next < compact.endIndex, isSpace(compact[next]) { next += 1 }
            return next < compact.endIndex ? compact[next] : nil
        }
        while index < compact.endIndex {
            let byte = compact[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Copy the string as it is, escapes included.
                var end = index + 1
                while end < compact.endIndex, compact[end] != UInt8(ascii: "\"") {
                    end += compact[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                end = min(end + 1, compact.endIndex)
                out.append(contentsOf: compact[index..<end])
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if nextSignificant(after: index) == close {
                    out.append(byte)
                    out.append(close)
                    index += 1
                    while compact[index] != close { index += 1 }
                } else {
                    out.append(byte)
                    depth += 1
                    newline()
                    if byte == UInt8(ascii: "{"), let first = pendingFirst {
                        out.append(contentsOf: first)
                        out.append(UInt8(ascii: ","))
                        newline()
                    }
                }
                pendingFirst = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                if !isSpace(byte) { out.append(byte) }
            }
            index += 1
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
