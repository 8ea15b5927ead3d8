import AuditCore
import AuditTransport

/// Which capture a request's snapshot is: `app`, `build` and `screen` from the query
/// (`?app=…&build=…&screen=…`) or a form's text fields of those names, replacing what the
/// snapshot says (an Appium or uiautomator dump says none of them); `default-screen`
/// names the screen only when neither does (auditctl sends the file's base name);
/// `platform` (`ios`, `android`, `web`) says the platform of a capture that does not say its
/// own (Flutter's semantics dump), and is refused where the capture says another.
struct SnapshotIdentity: Sendable {
    static let fields = ["app", "build", "screen"]
    /// The longest value taken (UTF-8 bytes): identities are names, not documents.
    static let maxBytes = 256

    var app: String?
    var build: String?
    var screen: String?
    var defaultScreen: String?
    var platform: Platform?

    /// `value` as the `field`'s value, or why not.
    /// Whether `value` is 1 to ``maxBytes`` bytes of text without control characters.
    static func isValid(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= maxBytes && !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    }

    static func check(_ field: String, _ value: String) -> Result<String, SnapshotRequest.Refusal> {
        guard isValid(value) else {
            return .failure(
                SnapshotRequest.Refusal(
                    response: .error(
                        400, code: "bad-identity",
                        message: "\(field) must be 1 to \(maxBytes) bytes of text without control characters",
                        hint: "e.g. ?app=com.example.shop&build=1843&screen=Checkout")))
        }
        return .success(value)
    }

    /// The query's values, or the refusal to answer.
    static func read(_ request: HTTPRequest) -> Result<SnapshotIdentity, SnapshotRequest.Refusal> {
        let query = request.query
        var identity = SnapshotIdentity()
        for field in fields + ["default-screen"] {
            guard let text = query[field] else { continue }
            switch check(field, text) {
            case .success(let value):
                switch field {
                case "app": identity.app = value
                case "build": identity.build = value
                case "screen": identity.screen = value
                default: identity.defaultScreen = value
                }
            case .failure(let refusal): return .failure(refusal)
            }
        }
        if let text = query["platform"] {
            guard let platform = Platform(rawValue: text), platform != .other else {
                return .failure(
                    SnapshotRequest.Refusal(
                        response: .error(
                            400, code: "bad-platform", message: "platform must be ios, android or web, not \"\(text)\"",
                            hint: "give the platform of a capture that does not say its own, e.g. ?platform=ios for a Flutter dump from an iPhone")))
            }
            identity.platform = platform
        }
        return .success(identity)
    }

    /// These values with a form's fields over them.
    func merging(_ form: [String: String]) -> SnapshotIdentity {
        var merged = self
        if let app = form["app"] { merged.app = app }
        if let build = form["build"] { merged.build = build }
        if let screen = form["screen"] { merged.screen = screen }
        return merged
    }

    func apply(to snapshot: Snapshot) -> Snapshot {
        snapshot.identified(app: app, build: build, screen: screen, defaultScreen: defaultScreen, platform: platform)
    }

    /// The identity a snapshot ends up with — its own attributes where the request named
    /// none — held to the same bound as the request's: a 1 MB app name read from the
    /// snapshot made a 109 MB `/metrics` and stayed in memory for good.
    /// The refusal of a platform asked for where the capture says another.
    func platformRefusal(_ snapshot: Snapshot) -> HTTPResponse? {
        guard let platform, platform != snapshot.platform else { return nil }
        return .error(
            400, code: "platform-conflict",
            message: "the capture says it is \(snapshot.platform.rawValue), and the request says \(platform.rawValue)",
            hint: "leave platform= out: it is for captures that do not say their platform (a Flutter semantics dump)")
    }

    static func refusal(of snapshot: Snapshot) -> HTTPResponse? {
        for (field, value) in [("app", snapshot.app), ("build", snapshot.build), ("screen", snapshot.screen)] {
            guard let value, !isValid(value) else { continue }
            return .error(
                400, code: "bad-identity",
                message: "the snapshot's \(field) is \(value.utf8.count) bytes\(value.utf8.count > maxBytes ? "" : " with control characters"): "
                    + "an identity is 1 to \(maxBytes) bytes of text without control characters",
                hint: "shorten it in the snapshot, or name it in the request (?\(field)=…), which replaces the snapshot's")
        }
        return nil
    }
}
