import AuditCore
import AuditHistory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which journal this is: a random name made when the journal starts from seq 1 and kept
/// beside it (`findings.jsonl.id`) for as long as its seq goes on. A reader that remembers
/// where it stopped (a shipper's last seq) checks it: a journal lost and begun again
/// restarts its seq at 1, and without a name the shipper skipped its first records as
/// already shipped.
enum JournalIdentity {
    /// The identity of the journal at `path` whose last seq is `lastSeq`: the one kept
    /// beside it, or a new one (kept) when the journal is new or none was kept.
    static func load(journal path: String, lastSeq: UInt64) -> String {
        let file = path + ".id"
        if lastSeq > 0, let kept = JournalFiles.identity(journal: path) { return kept }
        let made = make()
        write(made, to: file)
        return made
    }

    /// 32 hex digits from the system's random source.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in FNV1a.hex(generator.next()) }.joined()
    }

    private static func write(_ identity: String, to file: String) {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o640)
        guard fd >= 0 else { return }
        let bytes = Array((identity + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        _ = fsync(fd)
        close(fd)
    }
}
