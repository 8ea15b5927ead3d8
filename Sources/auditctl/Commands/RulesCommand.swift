import AuditClient
import AuditCore

/// `auditctl rules [--ruleset NAME] [--format text|json|markdown]`: the rules, from the
/// built-in metadata, or as a daemon's rule set configures them. `--format markdown`
/// writes docs/rules.md.
enum RulesCommand: Command {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the rules, or a rule set as the daemon has it (markdown writes docs/rules.md).",
        operands: "",
        options: [
            .init(name: "--ruleset", short: "-r", valueName: "NAME", help: "show this rule set as the daemon configures it"),
            .init(name: "--format", short: "-f", valueName: "FORMAT", help: "text, json or markdown", choices: ["text", "json", "markdown"]),
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let format = arguments.value("--format") ?? "text"
        var ruleSet: RuleSet?
        var ruleSetJSON: JSON?
        if let name = arguments.value("--ruleset") {
            let socket = DaemonConnection.socketPath(arguments)
            let timeout = try DaemonConnection.timeout(arguments)
            let client = UnixHTTPClient(socketPath: socket, timeout: timeout)
            do {
                let response = try client.request("GET", "/v1/rulesets/" + name)
                guard response.status == 200, let json = try? JSONParser.parse(response.body) else {
                    let message = (try? JSONParser.parse(response.body))?["error"]?["message"]?.stringValue ?? "status \(response.status)"
                    throw InputError(description: message)
                }
                ruleSetJSON = json
                ruleSet = makeRuleSet(json)
            } catch let error as ClientError {
                Console.error("auditctl: " + (error.unreachable ? DaemonConnection.unreachableMessage(error, socket: socket) : error.description))
                return .usageOrInput
            }
        }
        let rules = ruleSet.map { set in set.entries.map(\.rule) } ?? BuiltInRules.all.sorted { $0.description.id < $1.description.id }
        switch format {
        case "markdown":
            Console.out(RuleDocumentation.markdown(rules: rules, ruleSet: ruleSet))
        case "json":
            if let ruleSetJSON {
                Console.out(ruleSetJSON.rendered(pretty: true) + "\n")
            } else {
                Console.out(RuleSet.allBuiltIn.json.rendered(pretty: true) + "\n")
            }
        default:
            Console.out(RuleDocumentation.text(rules: rules, ruleSet: ruleSet))
        }
        return .clean
    }

    /// A rule set rebuilt from the daemon's description of it.
    static func makeRuleSet(_ json: JSON) -> RuleSet {
        var entries: [RuleSet.Entry] = []
        for rule in json["rules"]?.arrayValue ?? [] {
            guard let id = rule["id"]?.stringValue, let type = BuiltInRules.rule(id: id) else { continue }
            let severity = rule["severity"]?.stringValue.flatMap(Severity.init) ?? type.description.severity
            let parameters = Dictionary(uniqueKeysWithValues: rule["parameters"]?.objectValue ?? [])
            entries.append(RuleSet.Entry(rule: type, severity: severity, parameters: parameters))
        }
        let custom = (json["custom"]?.arrayValue ?? []).compactMap { rule -> XPathRule? in
            guard let id = rule["id"]?.stringValue, let xpath = rule["xpath"]?.stringValue else { return nil }
            return XPathRule(id: id, title: id, expression: xpath,
                             severity: rule["severity"]?.stringValue.flatMap(Severity.init) ?? .warning, message: "",
                             wcag: rule["wcag"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        return RuleSet(name: json["name"]?.stringValue ?? "", summary: json["description"]?.stringValue ?? "",
                       extends: json["extends"]?.stringValue, entries: entries, customRules: custom)
    }
}
