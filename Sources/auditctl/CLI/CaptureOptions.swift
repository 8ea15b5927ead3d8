import AuditCommandLine

/// The options that say which capture a snapshot is, shared by the commands that send
/// snapshots to the daemon (`audit`, `transcript`).
enum CaptureOptions {
    static let app = Option<String>("--app", valueName: "APP", help: "the app every snapshot is of (default: what each snapshot says)")
    static let build = Option<String>("--build", valueName: "BUILD", help: "the build every snapshot is of (default: what each snapshot says)")
    static let screen = Option<String>(
        "--screen", valueName: "SCREEN", help: "the screen (default: what the snapshot says, else the file's base name)")
    static let platform = Option<String>(
        "--platform", valueName: "PLATFORM", help: "the platform of captures that do not say theirs (a Flutter semantics dump): ios, android or web",
        choices: ["ios", "android", "web"])

    /// `app=`, `build=`, `screen=`, `platform=` from their options, percent-encoded.
    static func query(_ arguments: ParsedArguments) -> [String] {
        [("app", app), ("build", build), ("screen", screen), ("platform", platform)].compactMap { field, option in
            arguments[option].map { field + "=" + InputFiles.encoded($0) }
        }
    }
}
