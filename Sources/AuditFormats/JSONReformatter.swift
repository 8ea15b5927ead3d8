#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AuditCore

/// Re-indents compact JSON as `JSON.rendered(pretty: true)` would print it, byte by byte,
/// without building a tree: the daemon's reports can be tens of megabytes, and
/// `--format json` prints them as they came, with only the `file` member added.
package enum JSONReformatter {
    /// Appends `compact` (one JSON value) pretty-printed at nesting `level` to `out`. When
    /// `firstMember` is given (`"key": value`, already formatted), it is put first in the
    /// outermost object.
    package static func append<Sink: ByteSink>(_ compact: ArraySlice<UInt8>, level: Int, firstMember: [UInt8]? = nil, to out: inout Sink) {
        compact.withUnsafeBufferPointer { reformat($0, level: level, firstMember: firstMember, to: &out) }
    }

    /// Spaces for indentation, appended as slices (two a level).
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 256)

    /// Scans the bytes in place and copies whole runs — strings, numbers, literals — at
    /// once: a report of ten megabytes went through here byte by byte.
    private static func reformat<Sink: ByteSink>(
        _ compact: UnsafeBufferPointer<UInt8>, level: Int, firstMember: [UInt8]?,
        to out: inout Sink
    ) {
        var depth = level
        var index = 0
        let end = compact.count
        var pendingFirst = firstMember
        func newline() {
            out.write(byte: 0x0A)
            var indent = depth * 2
            while indent > 0 {
                let run = min(indent, spaces.count)
                spaces.withUnsafeBytes { out.write(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<run])) }
                indent -= run
            }
        }
        func nextSignificant(after position: Int) -> UInt8? {
            var next = position + 1
            while next < end, isSpace(compact[next]) { next += 1 }
            return next < end ? compact[next] : nil
        }
        func copy(_ range: Range<Int>) { out.write(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(compact)[range])) }
        while index < end {
            let byte = compact[index]
            switch byte {
            case UInt8(ascii: "\""):
                // Copy the string as it is, escapes included.
                let stop = closingQuote(in: compact, after: index)
                copy(index..<stop)
                index = stop
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if nextSignificant(after: index) == close {
                    out.write(byte: byte)
                    out.write(byte: close)
                    index += 1
                    while compact[index] != close { index += 1 }
                } else {
                    out.write(byte: byte)
                    depth += 1
                    newline()
                    if byte == UInt8(ascii: "{"), let first = pendingFirst {
                        first.withUnsafeBytes { out.write(bytes: $0) }
                        out.write(byte: UInt8(ascii: ","))
                        newline()
                    }
                }
                pendingFirst = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.write(byte: byte)
            case UInt8(ascii: ","):
                out.write(byte: byte)
                newline()
            case UInt8(ascii: ":"):
                out.write(byte: UInt8(ascii: ":"))
                out.write(byte: UInt8(ascii: " "))
            default:
                if isSpace(byte) { break }
                // A number or literal: up to the next structural byte or space.
                var stop = index + 1
                while stop < end, !isStructural(compact[stop]), !isSpace(compact[stop]) { stop += 1 }
                copy(index..<stop)
                index = stop
                continue
            }
            index += 1
        }
    }

    /// The index just past the quote that closes the string opening at `open` (`memchr`
    /// for quotes; one preceded by an odd run of backslashes is escaped), or the end.
    private static func closingQuote(in compact: UnsafeBufferPointer<UInt8>, after open: Int) -> Int {
        guard let base = compact.baseAddress else { return compact.count }
        var from = open + 1
        while from < compact.count {
            guard let found = memchr(base + from, Int32(UInt8(ascii: "\"")), compact.count - from) else { break }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 > open, compact[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote + 1 }
            from = quote + 1
        }
        return compact.count
    }

    private static func isStructural(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""):
            true
        default: false
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
