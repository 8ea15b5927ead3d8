import AuditCommandLine

/// The options that say which capture a snapshot is, shared by the commands that send
/// snapshots to the daemon (`audit`, `transcript`).
enum CaptureOptions {
    static let app = Option<String>("--app", valueName: "APP", help: "the app every snapshot is of (default: what each snapshot says)")
    static let build = Option<String>("--build", valueName: "BUILD", help: "the build every snapshot is of (default: what each snapshot says)")
    static let screen = Option<String>(
        "--screen", valueName: "SCREEN", help: "the screen (default: what the snapshot says, else the file's base name)")

    /// `app=`, `build=`, `screen=` from `--app`, `--build`, `--screen`, percent-encoded.
    static func query(_ arguments: ParsedArguments) -> [String] {
        [("app", app), ("build", build), ("screen", screen)].compactMap { field, option in
            arguments[option].map { field + "=" + InputFiles.encoded($0) }
        }
    }
}
