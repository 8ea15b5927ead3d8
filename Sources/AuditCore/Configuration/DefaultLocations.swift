/// Where the daemon listens and journals when not told (docs/DEPLOYMENT.md). Pure functions of the
/// environment and the user, shared by `auditd` and `auditctl`.
public enum DefaultLocations {
    /// `--socket`, else `$AUDITD_SOCKET`, else `/run/a11y-auditd/auditd.sock` as root, else
    /// `$XDG_RUNTIME_DIR/auditd.sock`, else `/tmp/auditd-$UID.sock`.
    public static func socket(explicit: String?, environment: [String: String], uid: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let value = environment["AUDITD_SOCKET"], !value.isEmpty { return value }
        if uid == 0 { return "/run/a11y-auditd/auditd.sock" }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/auditd.sock" }
        return "/tmp/auditd-\(uid).sock"
    }

    /// `--journal`, else `/var/lib/a11y-auditd/findings.jsonl` as root, else
    /// `$XDG_STATE_HOME/auditd/findings.jsonl` (default `~/.local/state/auditd/findings.jsonl`).
    public static func journal(explicit: String?, environment: [String: String], uid: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if uid == 0 { return "/var/lib/a11y-auditd/findings.jsonl" }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return state + "/auditd/findings.jsonl" }
        return (environment["HOME"] ?? "/tmp") + "/.local/state/auditd/findings.jsonl"
    }

    /// `--rules DIR…`, else `$AUDITD_RULES`, else the first of `/etc/a11y-auditd/rules` and
    /// `/usr/share/a11y-auditd/rules` that exists, else `fallback` (the source tree's
    /// `Rules/` when run from a build directory).
    public static func ruleDirectories(
        explicit: [String], environment: [String: String], exists: (String) -> Bool,
        fallback: String?
    ) -> [String] {
        if !explicit.isEmpty { return explicit }
        if let value = environment["AUDITD_RULES"], !value.isEmpty { return value.split(separator: ":").map(String.init) }
        for candidate in ["/etc/a11y-auditd/rules", "/usr/share/a11y-auditd/rules"] where exists(candidate) {
            return [candidate]
        }
        if let fallback, exists(fallback) { return [fallback] }
        return ["/usr/share/a11y-auditd/rules"]
    }
}
