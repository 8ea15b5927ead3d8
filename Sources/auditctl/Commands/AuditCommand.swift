import AuditClient
import AuditCommandLine
import AuditCore
import AuditFormats
import Dispatch
import Foundation

/// `auditctl audit FILE|DIR|- …`: submits snapshots to the daemon (concurrently with
/// `--jobs`), prints the findings in the chosen format, and exits as linters do.
enum AuditCommand: Command {
    static let format = Option<String>("--format", short: "-f", valueName: "FORMAT", help: ReportFormats.help, choices: ReportFormats.names)
    static let ruleset = Option<String>("--ruleset", short: "-r", valueName: "NAME", help: "rule set (default: picked by each snapshot's platform)")
    static let failOn = Option<String>(
        "--fail-on", valueName: "LEVEL", help: "exit 1 on findings at or above: error (default), warning, notice, never", choices: ["error", "warning", "notice", "never"])
    static let ocr = Flag("--ocr", help: "read each screenshot's text by OCR and run text.unexposed and text.truncated (slower: a second or more per screen)")
    static let baseline = Option<String>("--baseline", valueName: "REPORT", help: "a previous json or sarif report; only new findings fail")
    static let sinceBuild = Option<String>(
        "--since-build", valueName: "BUILD",
        help: "compare with the app's screens as of BUILD (or latest: the last other build) in the daemon's trend index; only new and regressed findings fail (needs --app)")
    static let output = Option<String>("--output", short: "-o", valueName: "FILE", help: "write the report to FILE instead of standard output")
    static let jobs = Option<Int>("--jobs", short: "-j", valueName: "N", help: "snapshots submitted at once (default: the number of cores)", in: 1...4096)
    static let androidDensity = Option<Double>(
        "--android-density", valueName: "DPR", help: "Android pixels per dp, for every snapshot (default: the daemon's, else estimated from the screen)", in: 0.1...16)
    static let density = Option<Double>("--density", valueName: "DPR", help: "the same as --android-density", in: 0.1...16)
    static let screenshot = Option<String>(
        "--screenshot", short: "-s", valueName: "IMAGE", help: "a PNG or JPEG of the screen, to read colours from its pixels (one snapshot only)")
    static let noScreenshots = Flag("--no-screenshots", help: "do not send the image beside each snapshot (login.xml + login.png or .jpg)")
    static let timing = Flag(
        "--timing", help: "print to standard error how long each snapshot took, and auditd's phases (receive, queue, parse, image, ocr, rules, findings, render, journal)")

    static let spec = CommandSpec(
        name: "audit",
        abstract: "Submit snapshots to auditd and print the findings.",
        operands: "<file|dir|->...", minOperands: 1, maxOperands: nil,
        options: [
            Self.format.spec,
            Self.ruleset.spec,
            Self.failOn.spec,
            Self.ocr.spec,
            Self.baseline.spec,
            Self.sinceBuild.spec,
            Self.output.spec,
            Self.jobs.spec,
            Self.androidDensity.spec,
            Self.density.spec,
            Self.screenshot.spec,
            Self.noScreenshots.spec,
            CaptureOptions.app.spec,
            CaptureOptions.build.spec,
            CaptureOptions.screen.spec, CaptureOptions.platform.spec,
            Self.timing.spec,
        ],
        discussion:
            "Directories are searched for *.xml files. A snapshot's screenshot is the image beside it with the same base name (login.xml + login.png or .jpg), sent unless --no-screenshots. Progress goes to standard error: a bar on a terminal, elsewhere (a CI log) a line each tenth of the run (\"auditctl: 40/89 snapshots audited\"). Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage, input or daemon error."
    )

    /// The baseline of `--since-build`: fetched from the daemon's trend index before any
    /// snapshot is sent (this run's own audits must not be their baseline).
    static func sinceBuild(_ build: String, _ arguments: ParsedArguments) throws -> Baseline {
        guard let app = arguments[CaptureOptions.app], !app.isEmpty else {
            throw UsageError(message: "--since-build compares within one app: give --app APP", command: "audit")
        }
        var query = ["app=" + InputFiles.encoded(app), "build=" + InputFiles.encoded(build)]
        if let current = arguments[CaptureOptions.build] { query.append("exclude=" + InputFiles.encoded(current)) }
        let socket = DaemonConnection.socketPath(arguments)
        let client = UnixHTTPClient(socketPath: socket, timeout: try DaemonConnection.timeout(arguments))
        let fetched = Result { () throws(ClientError) -> ClientResponse in try client.request("GET", "/v1/trends/baseline?" + query.joined(separator: "&")) }
        switch fetched {
        case .failure(let error):
            throw InputError(description: error.unreachable ? DaemonConnection.unreachableMessage(error, socket: socket) : error.description)
        case .success(let response):
            guard response.status == 200, let answer = try? JSONParser.parse(response.body) else {
                let error = ErrorAnswer(status: response.status, body: response.body)
                // An app's first build has no earlier one: every finding is new, as against
                // an empty baseline, so that a pipeline's first run can pass or fail by
                // --fail-on. A named build that does not exist stays an error (a typo must
                // not pass).
                if build == "latest", error.code == "unknown-app" || error.code == "unknown-build" {
                    Console.error(
                        "auditctl: note: no earlier build of \(TerminalText.escape(app)) has been audited: every finding is new (as against an empty baseline)")
                    var empty = Baseline(findings: [:])
                    empty.build = "none"
                    return empty
                }
                throw InputError(description: "--since-build \(build): " + error.message + (error.hint.map { " (" + $0 + ")" } ?? ""))
            }
            if build == "latest", let chosen = answer["build"]?.stringValue {
                Console.error("auditctl: comparing with build \(TerminalText.escape(chosen)) of \(TerminalText.escape(app))")
            }
            return try Baseline.sinceBuild(answer)
        }
    }

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let commandStarted = Timestamp.monotonic()
        let format = arguments[Self.format].flatMap(ReportFormats.named) ?? ReportFormats.all[0]
        let failOn: Severity? = (arguments[Self.failOn] ?? "error") == "never" ? nil : Severity(rawValue: arguments[Self.failOn] ?? "error")
        let files = try InputFiles.expand(arguments.operands)
        let jobs = arguments[Self.jobs] ?? ProcessInfo.processInfo.activeProcessorCount
        if arguments[Self.baseline] != nil, arguments[Self.sinceBuild] != nil {
            throw UsageError(message: "--baseline and --since-build are two baselines: give one", command: "audit")
        }
        var baseline = try arguments[Self.baseline].map(Baseline.load)
        if let build = arguments[Self.sinceBuild] {
            baseline = try sinceBuild(build, arguments)
        }
        if let baseline, !baseline.sameFingerprints {
            Console.error(
                "auditctl: note: the baseline was made with an older fingerprint scheme; its findings are matched by rule, element and message this once (save a new baseline)")
        }
        let socket = DaemonConnection.socketPath(arguments)
        let timeout = try DaemonConnection.timeout(arguments)
        var query: [String] = []
        if let ruleSet = arguments[Self.ruleset] {
            query.append("ruleset=" + (ruleSet.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ruleSet))
        }
        if let density = try InspectCommand.density(arguments, Self.androidDensity, Self.density, command: "audit") { query.append("density=\(density)") }
        query += CaptureOptions.query(arguments)
        if arguments[Self.ocr] { query.append("ocr=1") }
        let target = "/v1/audits" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        // Check every input first: unreadable files are a usage problem (exit 2). Files
        // are opened again when sent (a directory may hold more than one may keep open);
        // standard input is read now.
        let explicitScreenshot = arguments[Self.screenshot]
        if explicitScreenshot != nil, files.count != 1 {
            throw UsageError(message: "--screenshot goes with one snapshot; for many, put each image beside its snapshot (login.xml + login.png)", command: "audit")
        }
        if let explicitScreenshot, !FileManager.default.isReadableFile(atPath: explicitScreenshot) {
            throw InputError(description: "\(explicitScreenshot): cannot read the screenshot (does it exist, and may you read it?)")
        }
        let siblings = !arguments[Self.noScreenshots]
        var inputs: [(name: String, path: String, bytes: [UInt8]?, screenshot: String?)] = []
        for file in files {
            let screenshot = explicitScreenshot ?? (siblings ? InputFiles.siblingScreenshot(of: file) : nil)
            switch try InputFiles.body(file) {
            case .bytes(let bytes): inputs.append((file == "-" ? "<stdin>" : file, file, bytes, screenshot))
            case .file: inputs.append((file, file, nil, screenshot))
            }
        }
        // A bar on a terminal; plain lines where standard error is a log (a CI job's).
        let progress = Progress(total: inputs.count, enabled: !arguments[CommonOptions.quiet] && inputs.count > 1, terminal: Console.stderrIsTerminal)
        let submission = Submission(count: inputs.count)
        let workers = min(jobs, max(1, inputs.count))
        let requestTarget = target
        let printsAsSent = format.printsReportsAsSent && baseline == nil
        let allInputs = inputs
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let client = UnixHTTPClient(socketPath: socket, timeout: timeout)
            while let index = submission.next() {
                let input = allInputs[index]
                do {
                    let (body, contentType) = try InputFiles.auditBody(snapshot: input.path, bytes: input.bytes, screenshot: input.screenshot)
                    let requestStarted = Timestamp.monotonic()
                    let response = try client.request("POST", InputFiles.target(requestTarget, defaultScreenFor: input.path), body: body, contentType: contentType)
                    // `--format json` without a baseline prints the report as it came and
                    // needs only its summary (for --fail-on): no tree for megabytes of findings.
                    var result = SnapshotResult(file: input.name, status: response.status, body: response.body, summaryOnly: printsAsSent)
                    result.requestMilliseconds = Timestamp.milliseconds(from: requestStarted)
                    result.serverTiming = response.header("Server-Timing")
                    submission.store(index, .success(result))
                } catch let error as ClientError {
                    submission.store(index, .failure(error))
                } catch let error as InputError {
                    submission.store(index, .failure(ClientError(description: error.description)))
                } catch {
                    submission.store(index, .failure(ClientError(description: "\(error)")))
                }
                progress.advance()
            }
        }
        progress.finish()
        var results: [SnapshotResult] = []
        var matchedBaseline = false
        for outcome in submission.outcomes() {
            switch outcome {
            case .success(var result):
                if baseline?.apply(to: &result) == true { matchedBaseline = true }
                results.append(result)
            case .failure(let error):
                if error.unreachable {
                    Console.error("auditctl: " + DaemonConnection.unreachableMessage(error, socket: socket))
                    return .usageOrInput
                }
                throw InputError(description: error.description)
            }
        }
        if let baseline, baseline.build != "none", !baseline.findings.isEmpty, !matchedBaseline, !results.isEmpty {
            Console.error(
                "auditctl: warning: no snapshot of this run is in the baseline (matched by app and screen, else by file): every finding counts as new; check --app/--screen or the baseline file"
            )
        }
        var ruleSets: [String: RuleSet] = [:]
        if format.needsRuleSets {
            let client = UnixHTTPClient(socketPath: socket, timeout: timeout)
            for name in Set(results.compactMap { $0.report?.ruleSet }) {
                guard let response = try? client.request("GET", "/v1/rulesets/" + name), response.status == 200 else { continue }
                do {
                    ruleSets[name] = try RuleSet(answer: JSONParser.parse(response.body))
                } catch let problem as AnswerDecodingError {
                    throw InputError(description: "the daemon's description of rule set \(name) is not one auditctl can read: \(problem)")
                } catch {
                    throw InputError(description: "the daemon's description of rule set \(name) is not JSON")
                }
            }
        }
        var context = FormatContext(color: Console.useColor(arguments), hasBaseline: baseline != nil, ruleSets: ruleSets)
        context.quiet = arguments[CommonOptions.quiet]
        context.baselineName = baseline?.build.map { $0 == "none" ? "no earlier build" : "build \($0)" }
        context.failOn = failOn
        if format.needsSources {
            var sources: [String: [UInt8]] = [:]
            var screenshots: [String: [UInt8]] = [:]
            var links: [String: String] = [:]
            for input in inputs where sources[input.name] == nil {
                sources[input.name] = try input.bytes ?? InputFiles.read(input.path)
                if let screenshot = input.screenshot {
                    screenshots[input.name] = try InputFiles.read(screenshot)
                    links[input.name] = FileLink.href(to: screenshot, fromReport: arguments[Self.output])
                }
            }
            context.sources = sources
            context.screenshots = screenshots
            context.screenshotLinks = links
        }
        let printStarted = Timestamp.monotonic()
        var output = try arguments[Self.output].map { try FileOutput.file($0).get() } ?? FileOutput.standardOutput()
        format.write(results, context: context, to: &output)
        if let failure = output.finish(), let path = arguments[Self.output] {
            throw InputError(description: "\(path): cannot write the report (\(failure))")
        }
        if arguments[Self.timing] {
            for result in results {
                Console.error(
                    "auditctl: timing: "
                        + TimingReport.line(
                            file: result.file, requestMilliseconds: result.requestMilliseconds,
                            serverTiming: result.serverTiming))
            }
            let now = Timestamp.monotonic()
            Console.error(
                "auditctl: timing: report written in \(TimingReport.milliseconds(Timestamp.milliseconds(from: printStarted, to: now))) ms; "
                    + "audit command \(TimingReport.milliseconds(Timestamp.milliseconds(from: commandStarted, to: now))) ms")
        }
        let failing = results.reduce(0) { $0 + $1.counted(failOn: failOn, hasBaseline: baseline != nil) }
        if results.contains(where: { $0.error != nil }) { return .usageOrInput }
        return failing > 0 ? .findings : .clean
    }
}

/// Hands out work indexes to the submitting threads and keeps results in input order.
final class Submission: @unchecked Sendable {
    private let lock = Lock()
    private var nextIndex = 0
    private var results: [Result<SnapshotResult, ClientError>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.withLock {
            // Stop handing out work once the daemon is known to be unreachable.
            if results.contains(where: { if case .failure(let error)? = $0 { error.unreachable } else { false } }) { return nil }
            guard nextIndex < results.count else { return nil }
            nextIndex += 1
            return nextIndex - 1
        }
    }

    func store(_ index: Int, _ result: Result<SnapshotResult, ClientError>) {
        lock.withLock { results[index] = result }
    }

    func outcomes() -> [Result<SnapshotResult, ClientError>] {
        lock.withLock { results.compactMap { $0 } }
    }
}

/// Progress on standard error: a bar redrawn in place on a terminal; elsewhere (a CI log)
/// plain lines a log can read — each tenth of the run, and at least every 30 seconds.
final class Progress: @unchecked Sendable {
    let total: Int
    let enabled: Bool
    /// Standard error is a terminal: the bar; else lines.
    let terminal: Bool
    private let lock = Lock()
    private var done = 0
    private var lastLine = Timestamp.monotonic()
    private var lastTenth = 0

    init(total: Int, enabled: Bool, terminal: Bool = true) {
        self.total = total
        self.enabled = enabled
        self.terminal = terminal
    }

    func advance() {
        guard enabled else { return }
        lock.withLock {
            done += 1
            guard terminal else {
                let tenth = total > 0 ? done * 10 / total : 10
                let now = Timestamp.monotonic()
                if tenth > lastTenth || now &- lastLine >= 30_000_000_000 || done == total {
                    lastTenth = tenth
                    lastLine = now
                    FileHandle.standardError.write(Data("auditctl: \(done)/\(total) snapshots audited\n".utf8))
                }
                return
            }
            let width = 30
            let filled = total > 0 ? done * width / total : width
            let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
            FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) snapshots".utf8))
        }
    }

    func finish() {
        guard enabled, terminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
