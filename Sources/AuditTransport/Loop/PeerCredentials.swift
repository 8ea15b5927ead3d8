#if canImport(Glibc)
import Glibc
#endif

/// The process on the other end of a Unix socket, from `SO_PEERCRED`.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    /// Reads the peer of a connected socket; `nil` when the kernel will not say.
    public static func of(socket fd: Int32) -> PeerCredentials? {
        // struct ucred is behind _GNU_SOURCE in Glibc's headers; this has its layout.
        var credentials = PeerCredentials(pid: 0, uid: 0, gid: 0)
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        let result = withUnsafeMutablePointer(to: &credentials) {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0, &length)
        }
        return result == 0 ? credentials : nil
    }

    /// The peer's supplementary groups, from `/proc/PID/status` (best effort: empty when
    /// /proc hides other users' processes).
    public var supplementaryGroups: [UInt32] {
        let file = fopen("/proc/\(pid)/status", "r")
        guard let file else { return [] }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.hasPrefix("Groups:") else { continue }
            return text.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { UInt32($0) }
        }
        return []
    }
}

/// Who may talk to the daemon: root, the daemon's own user, the socket's group, and the
/// users and groups given with `--allow-uid` / `--allow-gid`.
public struct AccessPolicy: Sendable {
    public var uids: Set<UInt32>
    public var gids: Set<UInt32>

    public init(uids: Set<UInt32>, gids: Set<UInt32>) {
        self.uids = uids
        self.gids = gids
    }

    public func allows(_ peer: PeerCredentials) -> Bool {
        if uids.contains(peer.uid) || gids.contains(peer.gid) { return true }
        return !gids.isDisjoint(with: peer.supplementaryGroups)
    }
}
