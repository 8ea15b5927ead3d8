#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A Unix-domain socket address (`sockaddr_un`) with its length: the one place a path
/// becomes one, for the daemon's listener, its `sd_notify` datagrams and every client.
public struct UnixSocketAddress {
    public private(set) var storage = sockaddr_un()
    /// The length to pass to `bind`, `connect` or `sendto`.
    public let length: socklen_t

    /// The most bytes a path may have (`sun_path` holds them and a NUL).
    public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `nil` when `path` is empty or does not fit (``maximumPathBytes``). With
    /// `abstractNamespace`, a leading `@` names Linux's abstract namespace, as
    /// `$NOTIFY_SOCKET` may; elsewhere it is a file name like any other.
    public init?(path: String, abstractNamespace: Bool = false) {
        storage.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = abstractNamespace && bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard !bytes.isEmpty, bytes.count <= Self.maximumPathBytes else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        length = abstract ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count) : socklen_t(MemoryLayout<sockaddr_un>.size)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        var copy = storage
        return try withUnsafePointer(to: &copy) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
