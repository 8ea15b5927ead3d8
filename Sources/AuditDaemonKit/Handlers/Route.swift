import AuditCore
import AuditTransport

/// The daemon's routes as data (redis's command table is the model): each one's method and
/// path, what its query may say, the label its requests are counted under in `/metrics`,
/// what it answers, and its handler. ``Router`` dispatches from it, and docs/API.md's table
/// of routes is generated from it (`auditd --help-api`; scripts/generate-docs): a route
/// added here is documented there, or a test says the page is stale.
struct Route {
    var method: String
    /// The path, or with ``isPrefix`` the start of a family of paths (`/v1/rulesets/NAME`).
    var path: String
    var isPrefix = false
    /// The query (or the rest of a prefix's path) as the documentation shows it.
    var query = ""
    /// The route's label in `/metrics` (`auditd_requests_total{route=…}`).
    var metric: String
    /// What it answers, in markdown: the row of docs/API.md's table.
    var answers: String
    var handle: (ServiceContext, Ticket, HTTPRequest) -> Void

    /// Whether the route serves `path`.
    func serves(_ path: String) -> Bool {
        isPrefix ? path.count > self.path.count && path.hasPrefix(self.path) : path == self.path
    }

    /// Every route, in the order docs/API.md lists them.
    static var table: [Route] {
        [
            Route(
                method: "POST", path: "/v1/audits", query: #"?ruleset=NAME"#, metric: "audits",
                answers:
                    #"200 with the report ([findings.md](findings.md)). Body: one snapshot (`Content-Length` or `Transfer-Encoding: chunked`), or a `multipart/form-data` form with the snapshot and its screenshot ([below](#screenshots)). `ruleset` optional: the snapshot's `platform` picks `ios-default`, `android-default` or `wcag22-aa`. Optional `density=DPR` for Android dumps (a number from 0.1 to 16; anything else is 400 `bad-density`). Optional `app=`, `build=`, `screen=` (or a form's text fields of those names) say which capture this is, over what the snapshot says — an Appium or uiautomator dump says none of them; `default-screen=` names the screen only when neither does (auditctl sends the file's base name); `platform=ios|android|web` says the platform of a capture that does not say its own (a Flutter semantics dump: its rule set and reader follow), 400 `platform-conflict` where the capture says another. Each is 1 to 256 bytes without control characters (else 400 `bad-identity`); they go into the report's `snapshot`, the journal, fingerprints and every format. Optional `ocr=1`: read the screenshot's text by OCR and run `text.unexposed` and `text.truncated` ([ocr.md](ocr.md)); such audits run on a pool of their own, one at a time."#,
                handle: AuditHandler.handle),
            Route(
                method: "POST", path: "/v1/transcripts", query: #"?reader=talkback[:ORDER]|voiceover"#, metric: "transcripts",
                answers:
                    #"200 with what the screen reader says on the screen, stop by stop ([transcripts.md](transcripts.md), [schema](schemas/transcript.schema.json)). The same bodies and `density=` as `/v1/audits`; `reader` optional (the platform's reader by default; TalkBack's description order after a colon: `state-name-role`, its default, `name-role-state`, `role-name-state`; another value is 400 `bad-reader`); `ocr=1` with a screenshot reads its text for TalkBack's text recognition on unlabelled stops (`detected_text`; on the OCR pool, as an audit's OCR). Nothing is journalled: each audit's record carries its transcript."#,
                handle: TranscriptHandler.handle),
            Route(
                method: "GET", path: "/v1/findings", query: #"?since=SEQ&follow=1"#, metric: "findings",
                answers:
                    #"JSON Lines (`application/x-ndjson`) of journal records with **seq greater than `since`** (default 0: everything still in the journal and its rotated files), chunked to HTTP/1.1 clients (an HTTP/1.0 client gets the records unchunked, ended by the close); the records are read from the files as the client takes them, never gathered in memory. With `Connection: close` the connection closes once the backlog is sent. With `follow=1` the response stays open and delivers records as they become durable; a follower that falls more than `--follow-lag-bytes` (8 MiB) behind is disconnected (`auditd_followers_dropped_total`) and resumes with `since=` its last seq. Every answer names the journal, `Journal-Id: <32 hex digits>` (the same for as long as its seq goes on, another when the journal begins again at seq 1: compare it with the one a stored `since` came from), and the oldest record its files hold, `Journal-First-Seq`. When rotation has removed records after `since` (since > 0 and older than the oldest held), the answer is **410 `records-gone`** naming the range lost, not the rest as if whole; ask `since=` the first seq held minus one to go on without them."#,
                handle: FindingsHandler.handle),
            Route(
                method: "GET", path: "/v1/trends", query: #"?app=A[&screen=S][&build=B|latest]"#, metric: "trends",
                answers:
                    #"200 with the app's builds in first-audit order, each with `first_audited` and its screens' findings compared with their last earlier audit: `new`, `fixed`, `persistent`, `regressed`, `first`, `not-audited`, `by-severity`, `transcript-changed`; with `build=` (`latest`: the app's latest build), that build only, with its findings by class ([trends.md](trends.md)); without `app=`, every app with its latest build. 404 `unknown-app`, `unknown-build`. Read from the trend index beside the journal; one build costs what its screens hold."#,
                handle: TrendsHandler.handle),
            Route(
                method: "GET", path: "/v1/trends/baseline", query: #"?app=A&build=B|latest[&exclude=B]"#, metric: "trends",
                answers:
                    #"200 with `{"app", "build", "reports": [...]}`: each screen of the app as of build B (its last audit in B or a build before it) as a report with `findings` and `earlier` (fingerprints seen before it and not in it); what `auditctl audit --since-build` compares with. 400 `missing-build`."#,
                handle: TrendsHandler.baseline),
            Route(
                method: "GET", path: "/v1/rulesets", metric: "rulesets",
                answers: #"`{"rulesets": [...]}`: each set's rules with severity, WCAG criteria and parameters, custom XPath rules and suppressions."#,
                handle: RuleSetsHandler.handle),
            Route(
                method: "GET", path: "/v1/rulesets/", isPrefix: true, query: #"NAME"#, metric: "rulesets",
                answers: #"one rule set (extension)."#,
                handle: RuleSetsHandler.handle),
            Route(
                method: "GET", path: "/v1/health", metric: "health",
                answers: #"`{"status": "ok", "version", "uptime_s", "rulesets", "journal": {"path", "seq"}, "workers", "in_flight", "queued"}`."#,
                handle: HealthHandler.handle),
            Route(
                method: "GET", path: "/metrics", metric: "metrics",
                answers: #"Prometheus text exposition."#,
                handle: MetricsHandler.handle),
        ]
    }

    /// docs/API.md's table of routes, between its generated markers.
    static var markdown: String {
        var out = "<!-- BEGIN GENERATED by `auditd --help-api`; do not edit -->\n\n| route | answers |\n| --- | --- |\n"
        for route in table {
            let name = "\(route.method) \(route.path)\(route.query)".replacingAll("|", with: "\\|")
            out += "| `\(name)` | \(route.answers.replacingAll("|", with: "\\|")) |\n"
        }
        return out + "\n<!-- END GENERATED -->\n"
    }
}
