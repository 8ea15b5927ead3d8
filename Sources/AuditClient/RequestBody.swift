#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// What a request carries: bytes in memory, or a regular file that the kernel copies
/// to the socket itself (`sendfile`), so a snapshot of megabytes is never read into the
/// client at all.
public enum RequestBody {
    case bytes([UInt8])
    /// A regular file (``OpenFile/size`` known), sent from its start.
    case file(OpenFile)

    /// The bytes announced in `Content-Length`.
    public var count: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .file(let file): file.size ?? 0
        }
    }
}

/// A file opened for reading; closed when the last reference goes.
public final class OpenFile {
    public let fd: Int32
    /// The size a regular file had when opened; nil for a pipe, a socket or a device,
    /// which have no size to announce and are read to their end instead.
    public let size: Int?

    /// Opens `path`, or returns nil with `errno` set.
    public init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        self.fd = fd
        self.size = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
    }

    deinit { close(fd) }

    /// Every byte: a regular file's `size` bytes from its start, read straight into the
    /// array (a file that shrank gives fewer); a stream to its end. Nil on a read error.
    public func readAll() -> [UInt8]? {
        guard let size else { return readToEnd() }
        let read = FilledBytes(count: size) { to, wanted, offset in pread(fd, to, wanted, off_t(offset)) }
        return read.failure == nil ? read.bytes : nil
    }

    private func readToEnd() -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                return nil
            }
        }
    }
}
