#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why bytes put in a ``SpillFile`` could not be read back.
public struct SpillError: Error, Sendable, CustomStringConvertible {
    public var errno: Int32
    public var description: String { "reading back spilled findings: \(String(cString: strerror(errno)))" }
}

/// A nameless scratch file for bytes a process would otherwise hold whole while it still
/// needs other memory (an audit's written findings beside the snapshot they were written
/// from, docs/PERFORMANCE.md): appended from several threads at once, read back later,
/// gone with its last reference.
///
/// It is made in a directory on disk (the journal's, not `/tmp`, which may be memory) on
/// the first append, and unlinked at once: a process that dies leaves nothing behind.
/// Its pages live in the kernel's page cache, which can write them out under pressure —
/// unlike the process's own.
public final class SpillFile: @unchecked Sendable {
    /// Bytes appended to a spill file: where they are, to read them back.
    public struct Extent: Sendable {
        public let file: SpillFile
        public let offset: Int
        public let count: Int

        /// The bytes (``SpillFile/read(offset:count:)``).
        public func read() throws(SpillError) -> [UInt8] { try file.read(offset: offset, count: count) }
    }

    public let directory: String
    private let lock = Lock()
    /// Under ``lock``: the file (-1 before the first append, -2 once it could not be made)
    /// and the offset the next append takes.
    private var fd: Int32 = -1
    private var end = 0
    /// Bytes appended, for tests and figures.
    public var byteCount: Int { lock.withLock { end } }

    public init(directory: String) { self.directory = directory }

    deinit { if fd >= 0 { close(fd) } }

    /// Writes `bytes` at the file's end and returns where they are, or nil when there is
    /// no file or the write failed (the caller keeps the bytes itself). Writers take their
    /// places under the lock and write outside it, side by side.
    public func append(_ bytes: UnsafeRawBufferPointer) -> Extent? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        let place: (fd: Int32, offset: Int)? = lock.withLock {
            if fd == -1 { fd = Self.makeFile(in: directory) ?? -2 }
            guard fd >= 0 else { return nil }
            defer { end += bytes.count }
            return (fd, end)
        }
        guard let place else { return nil }
        var written = 0
        while written < bytes.count {
            let result = pwrite(place.fd, base + written, bytes.count - written, off_t(place.offset + written))
            if result < 0, errno == EINTR { continue }
            // A disk that is full or failing: the place taken stays a hole nobody reads.
            guard result > 0 else { return nil }
            written += result
        }
        return Extent(file: self, offset: place.offset, count: bytes.count)
    }

    /// The `count` bytes appended at `offset`.
    public func read(offset: Int, count: Int) throws(SpillError) -> [UInt8] {
        let fd = lock.withLock { self.fd }
        guard fd >= 0 else { throw SpillError(errno: EBADF) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let result = pread(fd, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    failure = result == 0 ? EIO : errno
                    break
                }
                done += result
            }
            initialized = done
        }
        guard failure == 0 else { throw SpillError(errno: failure) }
        return bytes
    }

    /// A new file in `directory`, already unlinked.
    private static func makeFile(in directory: String) -> Int32? {
        var template = Array((directory.isEmpty ? "." : directory).utf8CString.dropLast()) + Array("/.auditd-spill-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { name -> Int32 in
            guard let path = name.baseAddress else { return -1 }
            let fd = mkstemp(path)
            if fd >= 0 {
                unlink(path)
                // Not inherited by anything the daemon starts (`mkostemp` is not in Swift's libc module).
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            return fd
        }
        guard fd >= 0 else { return nil }
        return fd
    }
}
