import AuditClient
import AuditCore
import Foundation

/// Resolves the daemon's socket and explains how to start it when it does not answer.
enum DaemonConnection {
    static func socketPath(_ arguments: ParsedArguments) -> String {
        DefaultLocations.socket(explicit: arguments.value("--socket"), environment: ProcessInfo.processInfo.environment,
                                uid: getuid())
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
