import AuditClient
import AuditCommandLine
import AuditCore
import Foundation

/// Resolves the daemon's socket and explains how to start it when it does not answer.
enum DaemonConnection {
    static func socketPath(_ arguments: ParsedArguments) -> String {
        DefaultLocations.socket(
            explicit: arguments[CommonOptions.socket], environment: ProcessInfo.processInfo.environment,
            uid: getuid())
    }

    /// Seconds a request may wait for the daemon: `--timeout`, `$AUDITD_TIMEOUT`, else 120.
    static func timeout(_ arguments: ParsedArguments) throws -> Double {
        if let value = arguments[CommonOptions.timeout] { return value }
        guard let text = ProcessInfo.processInfo.environment["AUDITD_TIMEOUT"] else { return 120 }
        guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
            throw UsageError(message: "--timeout needs a number of seconds from 0 to 86400, not '\(text)'", command: "auditctl")
        }
        return value
    }

    /// A client of the daemon with the timeout the user asked for.
    static func client(_ arguments: ParsedArguments) throws -> UnixHTTPClient {
        UnixHTTPClient(socketPath: socketPath(arguments), timeout: try timeout(arguments))
    }

    /// The message for an unreachable daemon: the socket tried and how to start `auditd`.
    static func unreachableMessage(_ error: ClientError, socket: String) -> String {
        """
        \(error.description)
        Start the daemon with:   auditd --socket \(socket) &
        or, under systemd:       systemctl start a11y-auditd.socket
        (set the socket with --socket or $AUDITD_SOCKET)
        """
    }
}
