import AuditCore
import AuditFormats
import Foundation

/// A previous report (`--format json` or `--format sarif` output) whose findings are
/// compared by fingerprint: each new finding is `new` or `unchanged`, and findings of the
/// baseline that are gone are `absent` (fixed).
struct Baseline {
    /// Fingerprint → the baseline's finding, per snapshot file.
    var findings: [String: [String: ReportFinding]]
    /// False for a baseline made with another fingerprint scheme: findings are then
    /// matched by rule, element and message (``legacyKey(_:)``), and auditctl says so.
    var sameFingerprints = true

    /// Fingerprints each screen had in audits before the baseline's and not in it (a
    /// `--since-build` baseline from the trend index): a finding back from those is
    /// `regressed`, and fails as a new one does.
    var earlier: [String: Set<String>] = [:]

    /// The build a `--since-build` baseline is ("latest" resolved by the daemon), for
    /// reports to say "since build 41".
    var build: String?

    /// The key old baselines are compared by.
    static func legacyKey(_ finding: ReportFinding) -> String {
        [BuiltInRules.canonicalID(finding.rule), finding.elementName ?? "", finding.message].joined(separator: "\u{1F}")
    }

    /// How a baseline is made, for the errors of one that cannot be used.
    static func howToMake(_ path: String) -> String {
        "make one from the build to compare with: auditctl audit --format json -o \(path) SNAPSHOTS (or --format sarif)"
    }

    static func load(_ path: String) throws -> Baseline {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(description: "\(path): the baseline does not exist; \(howToMake(path))")
        }
        guard !isDirectory.boolValue else {
            throw InputError(description: "\(path): the baseline is a directory, not a report; \(howToMake(path + "/baseline.json"))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(description: "\(path): cannot read the baseline (may you read it?)")
        }
        let json: JSON
        do {
            json = try JSONParser.parse([UInt8](data))
        } catch {
            throw InputError(
                description: "\(path):\(error.line):\(error.column): the baseline is not JSON (\(error.message)); \(howToMake(path))")
        }
        return try parse(json, source: path)
    }

    /// The baseline `GET /v1/trends/baseline` answers for `--since-build`: the app's screens
    /// as of that build, each as a report with the fingerprints seen before it.
    static func sinceBuild(_ answer: JSON) throws -> Baseline {
        let reports = answer["reports"] ?? .array([])
        var baseline = try parse(reports, source: "the trend baseline of build \(answer["build"]?.stringValue ?? "?")")
        for report in reports.arrayValue ?? [] {
            guard let screen = report["snapshot"]?["screen"]?.stringValue else { continue }
            let key = screenKey(app: report["snapshot"]?["app"]?.stringValue, screen: screen)
            baseline.earlier[key] = Set((report["earlier"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        baseline.build = answer["build"]?.stringValue
        return baseline
    }

    /// A baseline from reports (`--format json` or `--format sarif` output); `source` names
    /// it in errors.
    static func parse(_ json: JSON, source path: String) throws -> Baseline {
        var findings: [String: [String: ReportFinding]] = [:]
        var sameFingerprints = true
        let currentKey = "auditd/v\(Fingerprint.version)"
        if json["version"]?.stringValue == "2.1.0", let runs = json["runs"]?.arrayValue {
            // SARIF: results with partialFingerprints.
            for run in runs {
                let artifacts = run["artifacts"]?.arrayValue ?? []
                for result in run["results"]?.arrayValue ?? [] where result["kind"]?.stringValue != "pass" && result["kind"]?.stringValue != "review" {
                    let prints = result["partialFingerprints"]
                    if prints?[currentKey] == nil, prints?["auditd/v1"] != nil { sameFingerprints = false }
                    guard let fingerprint = (prints?[currentKey] ?? prints?["auditd/v1"])?.stringValue else { continue }
                    let location = result["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]
                    var file = location?["uri"]?.stringValue ?? ""
                    if let index = location?["index"]?.intValue, index < artifacts.count,
                        let uri = artifacts[index]["location"]?["uri"]?.stringValue
                    {
                        file = uri
                    }
                    let logical = result["locations"]?.arrayValue?.first?["logicalLocations"]?.arrayValue?.first
                    let level = result["level"]?.stringValue
                    findings[fileKey(file.removingPercentEncoding ?? file), default: [:]][fingerprint] = ReportFinding(
                        rule: result["ruleId"]?.stringValue ?? "", severity: level == "note" ? .notice : level == "warning" ? .warning : .error,
                        message: result["message"]?["text"]?.stringValue ?? "",
                        element: logical?["name"]?.stringValue, path: logical?["fullyQualifiedName"]?.stringValue,
                        line: result["locations"]?.arrayValue?.first?["physicalLocation"]?["region"]?["startLine"]?.intValue,
                        fingerprint: fingerprint)
                }
            }
        } else if let reports = json.arrayValue ?? (json["findings"] != nil ? [json] : nil) {
            for report in reports {
                if report["fingerprint_version"]?.intValue != Fingerprint.version, report["findings"]?.arrayValue?.isEmpty == false {
                    sameFingerprints = false
                }
                let file = report["file"]?.stringValue ?? ""
                // A screen is found again by what it is (app and screen), not by the path the
                // file was given by; by the file only when the report names no screen.
                let screen = report["snapshot"]?["screen"]?.stringValue
                let keys = [screen.map { screenKey(app: report["snapshot"]?["app"]?.stringValue, screen: $0) }, fileKey(file)].compactMap { $0 }
                for (index, item) in (report["findings"]?.arrayValue ?? []).enumerated() {
                    do {
                        let finding = try ReportFinding(JSONFields(item, at: "findings[\(index)]"))
                        for key in keys { findings[key, default: [:]][finding.fingerprint] = finding }
                    } catch {
                        throw InputError(description: "\(path): \(file.isEmpty ? "" : file + ": ")\(error)")
                    }
                }
            }
        } else {
            throw InputError(description: "\(path): the baseline is JSON but not an auditctl report (json or sarif); \(howToMake(path))")
        }
        if !sameFingerprints {
            // Re-key by rule, element and message: fingerprints of another scheme match nothing.
            findings = findings.mapValues { byPrint in
                Dictionary(byPrint.values.map { (legacyKey($0), $0) }, uniquingKeysWith: { first, _ in first })
            }
        }
        return Baseline(findings: findings, sameFingerprints: sameFingerprints)
    }

    /// Whether the baseline's reports named their screens (JSON reports do; SARIF does not).
    var keyedByScreen: Bool { findings.keys.contains { $0.hasPrefix("screen\u{1F}") } }

    /// The key of a screen: its app and name.
    static func screenKey(app: String?, screen: String) -> String { "screen\u{1F}\(app ?? "")\u{1F}\(screen)" }

    /// The key of a file: its absolute path, `./a.xml` and `a.xml` alike.
    static func fileKey(_ file: String) -> String {
        guard !file.isEmpty, file != "<stdin>" else { return "file\u{1F}" + file }
        return "file\u{1F}" + URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// Marks `result`'s findings and collects the baseline's fixed ones; false when the
    /// baseline has nothing of this snapshot (neither its screen nor its file).
    @discardableResult
    func apply(to result: inout SnapshotResult) -> Bool {
        let byScreen = result.report?.snapshot.screen.map { findings[Self.screenKey(app: result.report?.snapshot.app, screen: $0)] } ?? nil
        let byFile = findings[Self.fileKey(result.file)] ?? findings[Self.fileKey(SARIFFormatter.artifactURI(result.file))]
        // A snapshot that names its screen is found by it alone when the baseline names
        // screens (the same path may hold another app's screen); else by its file (a SARIF
        // baseline, a snapshot without a screen).
        let matched = result.report?.snapshot.screen != nil && keyedByScreen ? byScreen : byFile
        let previous = matched ?? [:]
        let before = result.report?.snapshot.screen.flatMap { earlier[Self.screenKey(app: result.report?.snapshot.app, screen: $0)] } ?? []
        var seen = Set<String>()
        result.baselineStates = result.findings.map { finding in
            let fingerprint = sameFingerprints ? finding.fingerprint : Baseline.legacyKey(finding)
            seen.insert(fingerprint)
            return previous[fingerprint] != nil ? "unchanged" : before.contains(fingerprint) ? "regressed" : "new"
        }
        result.absent = previous.keys.sorted().filter { !seen.contains($0) }.compactMap { previous[$0] }
        return matched != nil
    }
}
