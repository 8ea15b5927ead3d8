import AuditSupport
#if canImport(Glibc)
import Glibc
#endif

/// `sd_notify` without libsystemd: datagrams to `$NOTIFY_SOCKET` (`READY=1`,
/// `STOPPING=1`, `STATUS=…`, `WATCHDOG=1`).
package final class SystemdNotify: Sendable {
    let path: String?
    /// Half the watchdog interval, when systemd asks for pings.
    package let watchdogInterval: Double?

    package init(environment: [String: String]) {
        path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true
        {
            watchdogInterval = Double(usec) / 2_000_000
        } else {
            watchdogInterval = nil
        }
    }

    package var isActive: Bool { path != nil }

    @discardableResult
    package func send(_ message: String) -> Bool {
        guard let path else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: path, abstractNamespace: true) else { return false }
        let sent = message.withCString { text in
            address.withSockaddr { sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL), $0, $1) }
        }
        return sent >= 0
    }
}
