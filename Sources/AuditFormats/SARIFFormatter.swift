import AuditCore

/// SARIF 2.1.0 for code-scanning upload: one run, the rules with their metadata (help text
/// and URI, WCAG tags, default level), results with physical and logical locations,
/// `partialFingerprints` from the finding fingerprint, `baselineState` with a baseline,
/// and incomplete results as `kind: "review"`.
package enum SARIFFormatter {
    package static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .notice: "note"
        }
    }

    package static func render(_ results: [SnapshotResult], context: FormatContext) -> String {
        // Rules: every rule of the rule sets used, plus any rule id seen in the results.
        var ruleIDs: [String] = []
        var levels: [String: String] = [:]
        var custom: [String: XPathRule] = [:]
        for name in Set(results.compactMap { $0.report?.ruleSet }).sorted() {
            guard let set = context.ruleSets[name] else { continue }
            for entry in set.entries {
                if !ruleIDs.contains(entry.id) { ruleIDs.append(entry.id) }
                levels[entry.id] = levels[entry.id] ?? level(entry.severity)
            }
            for rule in set.customRules {
                if !ruleIDs.contains(rule.id) { ruleIDs.append(rule.id) }
                custom[rule.id] = rule
                levels[rule.id] = level(rule.severity)
            }
        }
        for result in results {
            for id in result.findings.map(\.rule) + result.incomplete.map(\.rule) where !ruleIDs.contains(id) { ruleIDs.append(id) }
        }
        let rules: [JSON] = ruleIDs.map { id in
            if let description = BuiltInRules.rule(id: id)?.description {
                var tags = ["accessibility"] + description.wcag.map { "wcag" + $0.replacingOccurrences(of: ".", with: "") }
                tags += description.wcag.map { "WCAG " + $0 }
                return .object([
                    ("id", .string(id)), ("name", .string(camelCase(id))),
                    ("shortDescription", .object([("text", .string(description.title))])),
                    ("fullDescription", .object([("text", .string(description.help))])),
                    ("helpUri", .string(description.helpURL)),
                    (
                        "help",
                        .object([
                            ("text", .string(description.help)),
                            ("markdown", .string("**\(description.title)** — \(description.help)\n\nWCAG 2.2: \(description.wcag.joined(separator: ", "))")),
                        ])
                    ),
                    ("defaultConfiguration", .object([("level", .string(levels[id] ?? level(description.severity)))])),
                    ("properties", .object([("tags", .array(tags.map(JSON.string))), ("precision", .string("high"))])),
                ])
            }
            let rule = custom[id]
            return .object([
                ("id", .string(id)), ("name", .string(camelCase(id))),
                ("shortDescription", .object([("text", .string(rule?.id ?? id))])),
                ("fullDescription", .object([("text", .string("Custom XPath rule: \(rule?.expression ?? "")"))])),
                ("defaultConfiguration", .object([("level", .string(levels[id] ?? "warning"))])),
                ("properties", .object([("tags", .array([.string("accessibility")] + (rule?.wcag ?? []).map { JSON.string("WCAG " + $0) }))])),
            ])
        }
        let ruleIndex = Dictionary(uniqueKeysWithValues: ruleIDs.enumerated().map { ($1, $0) })

        var sarifResults: [JSON] = []
        var artifacts: [JSON] = []
        for (artifactIndex, result) in results.enumerated() {
            let uri = artifactURI(result.file)
            artifacts.append(.object([("location", .object([("uri", .string(uri))])), ("mimeType", .string("application/xml"))]))
            func location(line: Int?, column: Int? = nil, path: String? = nil, element: String? = nil) -> JSON {
                var physical: [(String, JSON)] = [("artifactLocation", .object([("uri", .string(uri)), ("index", .int(artifactIndex))]))]
                if let line, line > 0 {
                    var region: [(String, JSON)] = [("startLine", .int(line))]
                    if let column, column > 0 { region.append(("startColumn", .int(column))) }
                    physical.append(("region", .object(region)))
                }
                var members: [(String, JSON)] = [("physicalLocation", .object(physical))]
                if let path {
                    var logical: [(String, JSON)] = [("fullyQualifiedName", .string(path)), ("kind", .string("element"))]
                    if let element { logical.insert(("name", .string(element)), at: 0) }
                    members.append(("logicalLocations", .array([.object(logical)])))
                }
                return .object(members)
            }
            func location(_ finding: ReportFinding) -> JSON {
                location(line: finding.line, column: finding.column, path: finding.path, element: finding.element)
            }
            if let error = result.error {
                sarifResults.append(
                    .object([
                        ("ruleId", .string("snapshot.unreadable")), ("kind", .string("fail")), ("level", .string("error")),
                        ("message", .object([("text", .string("\(error.message) [\(error.code)]"))])),
                        ("locations", .array([location(line: error.line, column: error.column)])),
                    ]))
                continue
            }
            for (index, finding) in result.findings.enumerated() {
                let id = finding.rule
                var members: [(String, JSON)] = [
                    ("ruleId", .string(id)),
                    ("kind", .string("fail")),
                    ("level", .string(level(finding.severity))),
                    ("message", .object([("text", .string(finding.message))])),
                    ("locations", .array([location(finding)])),
                    ("partialFingerprints", .object([("auditd/v\(Fingerprint.version)", .string(finding.fingerprint))])),
                    (
                        "properties",
                        .object(
                            [("evidence", .object(finding.evidence)), ("wcag", .array(finding.wcag.map(JSON.string)))]
                                // The defect the result is an instance of (docs/findings.md): a
                                // property, not a fingerprint, so code scanning keeps each
                                // instance its own alert.
                                + (finding.defect.map { [("defect", JSON.string($0))] } ?? [])
                                // Back after a fix (`--since-build`): new to code scanning.
                                + (result.baselineState(index) == "regressed" ? [("regressed", JSON.bool(true))] : []))
                    ),
                ]
                if let ruleIndex = ruleIndex[id] { members.insert(("ruleIndex", .int(ruleIndex)), at: 1) }
                if context.hasBaseline {
                    // SARIF knows new/unchanged/updated/absent: a regressed finding is new to
                    // code scanning (its properties say it came back).
                    let state = result.baselineState(index) ?? "new"
                    members.append(("baselineState", .string(state == "regressed" ? "new" : state)))
                }
                sarifResults.append(.object(members))
            }
            for item in result.incomplete {
                let id = item.rule
                var members: [(String, JSON)] = [
                    ("ruleId", .string(id)), ("kind", .string("review")), ("level", .string("none")),
                    ("message", .object([("text", .string("Needs review: " + item.reason))])),
                    ("locations", .array([location(line: item.line, path: item.path, element: item.element)])),
                ]
                if let ruleIndex = ruleIndex[id] { members.insert(("ruleIndex", .int(ruleIndex)), at: 1) }
                sarifResults.append(.object(members))
            }
            if context.hasBaseline {
                for fixed in result.absent {
                    sarifResults.append(
                        .object([
                            ("ruleId", .string(fixed.rule)), ("kind", .string("pass")), ("level", .string("none")),
                            ("message", .object([("text", .string("Fixed: " + fixed.message))])),
                            ("locations", .array([location(fixed)])),
                            ("partialFingerprints", .object([("auditd/v\(Fingerprint.version)", .string(fixed.fingerprint))])),
                            ("baselineState", .string("absent")),
                        ]))
                }
            }
        }
        let log: JSON = .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            (
                "runs",
                .array([
                    .object([
                        (
                            "tool",
                            .object([
                                (
                                    "driver",
                                    .object([
                                        ("name", .string("auditd")), ("fullName", .string("auditd accessibility audit daemon")),
                                        ("version", .string(AuditCoreVersion.string)), ("semanticVersion", .string(AuditCoreVersion.string)),
                                        ("informationUri", .string("https://www.w3.org/TR/WCAG22/")),
                                        ("rules", .array(rules)),
                                    ])
                                )
                            ])
                        ),
                        ("artifacts", .array(artifacts)),
                        ("results", .array(sarifResults)),
                        ("columnKind", .string("unicodeCodePoints")),
                    ])
                ])
            ),
        ])
        return log.rendered(pretty: true) + "\n"
    }

    /// A relative URI for a file path (SARIF wants URIs; spaces and the like escaped).
    package static func artifactURI(_ file: String) -> String {
        if file == "<stdin>" { return "stdin.xml" }
        var path = file
        while path.hasPrefix("./") { path.removeFirst(2) }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")
        return path.unicodeScalars.map { scalar in
            allowed.contains(Character(scalar))
                ? String(scalar)
                : String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
        }.joined()
    }

    static func camelCase(_ id: String) -> String {
        id.split(whereSeparator: { $0 == "." || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
