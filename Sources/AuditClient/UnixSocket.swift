import AuditSupport
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The two socket calls every client of the daemon needs: connect to a Unix socket path,
/// and send all of a buffer.
public enum UnixSocket {
    /// A connected stream socket, close-on-exec; with `receiveTimeout` (seconds), reads
    /// give up after that long.
    public static func connect(_ path: String, receiveTimeout: Int? = nil) throws(ClientError) -> Int32 {
        try connect(path, timeout: receiveTimeout.map(Double.init), sendTimeout: false)
    }

    /// A connected stream socket whose reads — and writes, with `sendTimeout` — give up
    /// after `timeout` seconds without progress (an `EAGAIN` the callers report as a timeout).
    public static func connect(_ path: String, timeout: Double?, sendTimeout: Bool) throws(ClientError) -> Int32 {
        let address = try UnixSocket.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket(): \(String(cString: strerror(errno)))") }
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ClientError(description: "cannot reach auditd at \(path) (\(reason))", unreachable: true)
        }
        if let timeout, timeout.isFinite, timeout > 0 {
            let seconds = min(timeout, 1e6)
            var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
            if sendTimeout { setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) }
        }
        return fd
    }

    /// The address of `path`; a path too long for one is an error.
    public static func address(_ path: String) throws(ClientError) -> UnixSocketAddress {
        guard let address = UnixSocketAddress(path: path) else {
            throw ClientError(description: "socket path is empty or too long (\(path.utf8.count) bytes; at most \(UnixSocketAddress.maximumPathBytes)): \(path)", unreachable: true)
        }
        return address
    }

    /// Sends every byte (retrying on EINTR and short writes).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw ClientError.io("sending to auditd", errno)
            }
            offset += sent
        }
    }

    /// Sends the first `file.size` bytes of `file` with `sendfile` (the kernel copies
    /// from the page cache to the socket), from the start of the file whatever its
    /// position. A file that shrank meanwhile is an error: the request announced its size.
    /// `sendfile` cannot be told MSG_NOSIGNAL: the process must ignore SIGPIPE, or a peer
    /// that closes early kills it (auditctl does).
    public static func sendAll(_ fd: Int32, file: OpenFile) throws(ClientError) {
        guard let size = file.size else { throw ClientError(description: "only a regular file can be sent as it is") }
        var offset = off_t(0)
        while Int(offset) < size {
            let sent = sendfile(fd, file.fd, &offset, size - Int(offset))
            if sent < 0 {
                if errno == EINTR { continue }
                throw ClientError.io("sending to auditd", errno)
            }
            if sent == 0 {
                throw ClientError(description: "the file shrank while it was being sent (\(offset) of \(size) bytes)")
            }
        }
    }
}
