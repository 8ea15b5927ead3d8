import AuditCommandLine

/// The declaration of one `auditctl` command: what it is for, its options and its
/// operands. Help text, parsing and completions are all derived from it; the command reads
/// its options through the same typed handles its spec lists (``Option``, ``Flag``).
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var operands: String
    var minOperands = 0
    var maxOperands: Int? = 0
    var options: [OptionSpec]
    var discussion: String = ""
}

/// Options every command accepts, before or after the command name (docs/CLI.md).
enum CommonOptions {
    static let socket = Option<String>("--socket", valueName: "PATH", help: "daemon socket (default: $AUDITD_SOCKET, then the per-user default of docs/CLI.md)")
    static let timeout = Option<Double>(
        "--timeout", valueName: "SECONDS", help: "give up on a daemon that answers nothing for this long, exit 2 (default: $AUDITD_TIMEOUT, else 120)",
        expected: "a number of seconds above 0, at most 86400", accepts: { $0 > 0 && $0 <= 86_400 })
    static let color = Option<String>(
        "--color", valueName: "WHEN", help: "colour output: auto, always or never (NO_COLOR is honoured)", choices: ["auto", "always", "never"])
    static let quiet = Flag("--quiet", short: "-q", help: "print nothing but results and errors (no progress, no incomplete lines)")
    static let help = Flag("--help", short: "-h", help: "show help for this command")

    static let all: [OptionSpec] = [socket.spec, timeout.spec, color.spec, quiet.spec, help.spec]
}
