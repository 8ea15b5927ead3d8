import AuditSupport
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Why the daemon cannot listen; printed and exit status 1.
package struct ListenerError: Error, CustomStringConvertible, Sendable {
    package var description: String
}

/// Makes the listening Unix socket: from systemd socket activation (`LISTEN_FDS`), or by
/// binding the path — replacing a stale socket file nobody answers on, refusing a live one.
package enum Listener {
    package struct Socket: Sendable {
        package var fd: Int32
        /// True when systemd passed the socket (we must not unlink it).
        package var activated: Bool
        package var path: String
    }

    package static func open(
        path: String, mode: mode_t, group: gid_t?, environment: [String: String],
        logger: Logger
    ) throws(ListenerError) -> Socket {
        if let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
            let fd: Int32 = 3
            setNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            logger.info("using the socket passed by systemd", ["fds": String(count)])
            return Socket(fd: fd, activated: true, path: path)
        }
        guard let address = UnixSocketAddress(path: path) else {
            throw ListenerError(description: "socket path is empty or too long (\(path.utf8.count) bytes; Unix sockets allow \(UnixSocketAddress.maximumPathBytes)): \(path)")
        }
        makeParentDirectory(of: path)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw ListenerError(description: "\(path) exists and is not a socket; remove it or choose another --socket")
            }
            if probe(path) {
                throw ListenerError(description: "another auditd is already listening on \(path); stop it or choose another --socket")
            }
            logger.info("replacing a stale socket file", ["path": path])
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw ListenerError(description: "socket(): \(String(cString: strerror(errno)))") }
        let previousMask = umask(0o117)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        umask(previousMask)
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ListenerError(description: "cannot bind \(path): \(reason)")
        }
        chmod(path, mode)
        if let group, chown(path, uid_t.max, group) != 0 {
            logger.warning("cannot give the socket to the group", ["gid": String(group), "error": String(cString: strerror(errno))])
        }
        guard listen(fd, 512) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ListenerError(description: "cannot listen on \(path): \(reason)")
        }
        return Socket(fd: fd, activated: false, path: path)
    }

    /// True when something accepts connections at `path`.
    package static func probe(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: path) else { return false }
        return address.withSockaddr { connect(fd, $0, $1) } == 0
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func makeParentDirectory(of path: String) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components where !component.isEmpty {
            current += "/" + component
            mkdir(current, 0o750)
        }
    }
}
