/// The declaration of one `auditctl` command: what it is for, its options and its
/// operands. Help text, parsing and completions are all derived from it.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        /// Long name with dashes (`--format`), plus an optional short one (`-f`).
        var name: String
        var short: String?
        /// `nil` for a flag; else the placeholder shown in help (`FORMAT`).
        var valueName: String?
        var help: String
        /// Accepted values, checked at parse time, when the set is closed.
        var choices: [String]?
        var repeatable = false
    }

    var name: String
    var abstract: String
    var operands: String
    var minOperands = 0
    var maxOperands: Int? = 0
    var options: [Option]
    var discussion: String = ""
}

/// Options every command accepts, before or after the command name (docs/CLI.md).
enum CommonOptions {
    static let all: [CommandSpec.Option] = [
        .init(name: "--socket", valueName: "PATH", help: "daemon socket (default: $AUDITD_SOCKET, then the per-user default of docs/CLI.md)"),
        .init(
            name: "--timeout", valueName: "SECONDS",
            help: "give up on a daemon that answers nothing for this long, exit 2 (default: $AUDITD_TIMEOUT, else 120)"),
        .init(name: "--color", valueName: "WHEN", help: "colour output: auto, always or never (NO_COLOR is honoured)", choices: ["auto", "always", "never"]),
        .init(name: "--quiet", short: "-q", help: "print nothing but results and errors (no progress, no incomplete lines)"),
        .init(name: "--help", short: "-h", help: "show help for this command"),
    ]
}
