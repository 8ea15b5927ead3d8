#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One writer per journal (and per trend index): an exclusive `flock` on a lock file beside
/// it (`findings.jsonl.lock`), held for the daemon's life and let go by the kernel when the
/// daemon ends however it ends (kill -9 included). The lock file names its holder — pid and
/// socket — so a second daemon started on the same journal refuses with who holds it,
/// where it used to write the same sequence numbers as the first. A lock file, not the
/// journal itself: rotation renames the journal, and the lock must stay on one name.
package enum WriterLock {
    /// Takes the lock at `path` for the rest of the process's life, writing `owner` (who
    /// holds it, for the error another daemon gives) into it; throws, naming the holder,
    /// when another process has it. The descriptor is never closed: the kernel closes it,
    /// and lets go of the lock, when the process ends.
    package static func hold(_ path: String, owner: String) throws(WriterLockError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o640)
        guard fd >= 0 else { throw WriterLockError(path: path, errno: errno, holder: nil) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = readHolder(fd)
            close(fd)
            throw WriterLockError(path: path, errno: code, holder: holder)
        }
        let text = Array((owner + "\n").utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The first line of the lock file (at most 512 bytes): who holds it.
    private static func readHolder(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let line = buffer[..<count].prefix { $0 != 0x0A }
        let text = String(decoding: line, as: UTF8.self).filter { !$0.isNewline && $0.asciiValue.map { $0 >= 0x20 } ?? true }
        return text.isEmpty ? nil : text
    }
}

/// Why a writer lock was not taken: another daemon holds it (`holder` says which, when its
/// lock file says), or the lock file could not be opened.
package struct WriterLockError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let errno: Int32
    package let holder: String?

    /// Another process holds the lock (as opposed to the file not opening).
    package var isHeld: Bool { errno == EWOULDBLOCK || errno == EAGAIN }

    package var description: String {
        guard isHeld else { return "cannot open the lock file \(path): \(String(cString: strerror(errno)))" }
        return "\(path) is held by another auditd (\(holder ?? "its pid unknown")): one daemon writes a journal and its index; "
            + "stop that daemon, or give this one another --journal"
    }
}
