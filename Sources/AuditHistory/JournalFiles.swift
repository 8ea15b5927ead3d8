import AuditCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A journal as the daemon leaves it on disk, read by everyone who reads one: the daemon's
/// `GET /v1/findings` (which files, each line's seq), `auditctl trend --journal` and
/// `auditctl export --journal` (every record), and through that the ClickHouse shipper.
/// The files are the rotated `PATH.N` … `PATH.1` (oldest first) then `PATH`; each line is
/// one record beginning `{"seq":N,`; the journal's name is kept beside it in `PATH.id`.
package enum JournalFiles {
    /// The journal's files that exist, oldest first: the rotated ones (up to `keep`, or as
    /// many as there are), then the journal itself.
    package static func paths(journal path: String, keep: Int? = nil) -> [String] {
        var rotated: [String] = []
        var index = 1
        while keep.map({ index <= $0 }) ?? (index <= 10_000), access("\(path).\(index)", F_OK) == 0 {
            rotated.append("\(path).\(index)")
            index += 1
        }
        return rotated.reversed() + [path]
    }

    /// The journal's name (`Journal-Id`: 32 hex digits), kept beside it in `PATH.id`; nil
    /// when none is.
    package static func identity(journal path: String) -> String? {
        let fd = open(path + ".id", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count].prefix { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 }, as: UTF8.self)
        guard text.count == 32, text.allSatisfy({ $0.isHexDigit }) else { return nil }
        return text
    }

    /// The seq of a journal line, read from its `{"seq":N,` prefix.
    package static func seq<Line: Collection>(of line: Line) -> UInt64? where Line.Element == UInt8 {
        let prefix = Array("{\"seq\":".utf8)
        guard line.starts(with: prefix) else { return nil }
        var value: UInt64 = 0
        var digits = 0
        for byte in line.dropFirst(prefix.count) {
            guard byte >= 0x30, byte <= 0x39 else { break }
            value = value &* 10 &+ UInt64(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// Bytes read from a file at a time.
    static let chunkBytes = 1 << 20

    /// Hands `body` every whole line of the journal whose seq is above `since`, oldest
    /// first, in chunks of whole lines (each ending in a newline); returns the first seq
    /// the files hold (nil: none), so that a reader can tell records rotated away after
    /// `since` from none written. A journal file that cannot be read is an error naming
    /// it; a rotated file gone meanwhile is skipped.
    @discardableResult
    package static func forEachRecord(
        journal path: String, since: UInt64 = 0, _ body: (UnsafeRawBufferPointer) throws(HistoryError) -> Void
    ) throws(HistoryError) -> UInt64? {
        var firstHeld: UInt64?
        for file in paths(journal: path) {
            guard let handle = fopen(file, "rb") else {
                if file == path {
                    throw HistoryError("cannot read \(path): \(String(cString: strerror(errno)))", hint: "give the daemon's journal (auditd --journal FILE), or a copy of it")
                }
                continue
            }
            defer { fclose(handle) }
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: chunkBytes)
            var selected: [UInt8] = []
            while true {
                let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, chunkBytes, handle) }
                if count == 0 { break }
                pending.append(contentsOf: chunk[0..<count])
                // Whole lines only: what follows the last newline waits for the next chunk.
                guard let last = pending.lastIndex(of: 0x0A) else { continue }
                selected.removeAll(keepingCapacity: true)
                var start = 0
                while start <= last, let end = pending[start...last].firstIndex(of: 0x0A) {
                    let line = pending[start...end]
                    if let seq = seq(of: line) {
                        if firstHeld == nil { firstHeld = seq }
                        if seq > since { selected.append(contentsOf: line) }
                    }
                    start = end + 1
                }
                pending.removeSubrange(0...last)
                if !selected.isEmpty {
                    let failure: HistoryError? = selected.withUnsafeBytes { bytes in
                        do throws(HistoryError) {
                            try body(bytes)
                            return nil
                        } catch {
                            return error
                        }
                    }
                    if let failure { throw failure }
                }
            }
            if ferror(handle) != 0 { throw HistoryError("cannot read \(file): \(String(cString: strerror(errno)))") }
        }
        return firstHeld
    }
}
