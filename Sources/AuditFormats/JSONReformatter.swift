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

    /// Scans the bytes in place and copies whole runs — strings, numbers, literals — at
    /// once: a report of ten megabytes went through here byte by byte. Output is staged in
    /// a buffer of this module's own and handed to `out` 64 KB at a time: written to the
    /// caller's sink directly, every byte went through the sink protocol's witnesses (the
    /// sink is another module's type, so nothing here is specialised for it) — about half
    /// of `auditctl`'s time writing a large report.
    private static func reformat<Sink: ByteSink>(
        _ compact: UnsafeBufferPointer<UInt8>, level: Int, firstMember: [UInt8]?,
        to out: inout Sink
    ) {
        var staged = Staging()
        defer { staged.release() }
        var depth = level
        var index = 0
        let end = compact.count
        var pendingFirst = firstMember
        func newline() {
            staged.put(0x0A, to: &out)
            staged.putSpaces(depth * 2, to: &out)
        }
        func nextSignificant(after position: Int) -> UInt8? {
            var next = position + 1
            while next < end, isSpace(compact[next]) { next += 1 }
            return next < end ? compact[next] : nil
        }
        func copy(_ range: Range<Int>) { staged.put(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(compact)[range]), to: &out) }
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
                    staged.put(byte, to: &out)
                    staged.put(close, to: &out)
                    index += 1
                    while compact[index] != close { index += 1 }
                } else {
                    staged.put(byte, to: &out)
                    depth += 1
                    newline()
                    if byte == UInt8(ascii: "{"), let first = pendingFirst {
                        first.withUnsafeBytes { staged.put($0, to: &out) }
                        staged.put(UInt8(ascii: ","), to: &out)
                        newline()
                    }
                }
                pendingFirst = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                staged.put(byte, to: &out)
            case UInt8(ascii: ","):
                staged.put(byte, to: &out)
                newline()
            case UInt8(ascii: ":"):
                staged.put(UInt8(ascii: ":"), to: &out)
                staged.put(UInt8(ascii: " "), to: &out)
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
        staged.flush(to: &out)
    }

    /// The output of one reformatting, gathered before it goes to the caller's sink.
    private struct Staging {
        static let capacity = 64 * 1024
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: Staging.capacity)
        var used = 0

        mutating func put<Sink: ByteSink>(_ byte: UInt8, to out: inout Sink) {
            if used == Staging.capacity { flush(to: &out) }
            base[used] = byte
            used += 1
        }

        mutating func put<Sink: ByteSink>(_ bytes: UnsafeRawBufferPointer, to out: inout Sink) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            if used + bytes.count > Staging.capacity { flush(to: &out) }
            // Longer than the buffer: straight through.
            guard bytes.count <= Staging.capacity else { return out.write(bytes: bytes) }
            (base + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            used += bytes.count
        }

        /// `count` spaces (indentation).
        mutating func putSpaces<Sink: ByteSink>(_ count: Int, to out: inout Sink) {
            var left = count
            while left > 0 {
                if used == Staging.capacity { flush(to: &out) }
                let run = min(left, Staging.capacity - used)
                (base + used).update(repeating: UInt8(ascii: " "), count: run)
                used += run
                left -= run
            }
        }

        mutating func flush<Sink: ByteSink>(to out: inout Sink) {
            if used > 0 { out.write(bytes: UnsafeRawBufferPointer(start: base, count: used)) }
            used = 0
        }

        func release() { base.deallocate() }
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
