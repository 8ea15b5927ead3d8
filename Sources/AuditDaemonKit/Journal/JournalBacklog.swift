#if canImport(Glibc)
import Glibc
#endif

/// The journal's records after a seq, read from the files in pieces as they are sent
/// (`GET /v1/findings`): memory stays at one piece and one line whatever the journal's
/// size. The files were opened when the backlog was taken and are read up to the lengths
/// they had then; a rotation meanwhile does not disturb them. Used by one thread at a time.
package final class JournalBacklog: @unchecked Sendable {
    struct Source {
        let fd: Int32
        let length: Int
        /// Where reading starts: a line start before which no line is wanted.
        var start = 0
    }

    private var sources: [Source]
    private let since: UInt64
    private var offset = 0
    /// The start of a line whose end is not read yet.
    private var carry: [UInt8] = []
    private var block: [UInt8] = []

    /// The seq of the oldest record the journal's files still hold (the next seq to be
    /// written when they hold none).
    package let firstHeld: UInt64

    init(sources: [Source], since: UInt64, firstHeld: UInt64) {
        self.sources = sources
        self.since = since
        self.firstHeld = firstHeld
        offset = sources.first?.start ?? 0
    }

    deinit { for source in sources { close(source.fd) } }

    /// Appends the next lines with a seq greater than `since` to `out`, reading about
    /// `limit` bytes of the files; false once every file is read.
    package func fill(_ out: inout [UInt8], limit: Int) -> Bool {
        guard let source = sources.first else { return false }
        if block.count < limit { block = [UInt8](repeating: 0, count: max(limit, 4096)) }
        let wanted = min(limit, source.length - offset)
        let got = wanted > 0 ? block.withUnsafeMutableBytes { pread(source.fd, $0.baseAddress, wanted, off_t(offset)) } : 0
        if got <= 0 {
            // This file is done (a torn or shortened end is left out).
            close(source.fd)
            sources.removeFirst()
            offset = sources.first?.start ?? 0
            carry = []
            return !sources.isEmpty
        }
        offset += got
        block.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var start = 0
            // Lines found with memchr: the journal is read at the speed of memory.
            while start < got, let found = memchr(base + start, 0x0A, got - start) {
                let end = base.distance(to: UnsafeRawPointer(found)) + 1
                let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
                if carry.isEmpty {
                    if let seq = Journal.seq(of: line), seq > since { out.append(contentsOf: line) }
                } else {
                    carry.append(contentsOf: line)
                    if let seq = Journal.seq(of: carry), seq > since { out.append(contentsOf: carry) }
                    carry = []
                }
                start = end
            }
            if start < got { carry.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: got - start)) }
        }
        return true
    }
}
