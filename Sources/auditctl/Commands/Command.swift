import AuditClient
import AuditCommandLine
import AuditCore
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// One `auditctl` subcommand: its declaration and what it does.
protocol Command {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments) throws -> ExitStatus
}
