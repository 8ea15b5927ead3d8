import AuditClient
import AuditCommandLine
import AuditCore
import AuditFormats

/// `auditctl rules [--ruleset NAME] [--format text|json|markdown]`: the rules, from the
/// built-in metadata, or as a daemon's rule set configures them. `--format markdown`
/// writes docs/rules.md.
enum RulesCommand: Command {
    static let ruleset = Option<String>("--ruleset", short: "-r", valueName: "NAME", help: "show this rule set as the daemon configures it")
    static let format = Option<String>(
        "--format", short: "-f", valueName: "FORMAT", help: "text, json, markdown, or schema (the JSON Schema of rule-set files)", choices: ["text", "json", "markdown", "schema"])

    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the rules, or a rule set as the daemon has it (markdown writes docs/rules.md, schema docs/schemas/ruleset.schema.json).",
        operands: "",
        options: [
            Self.ruleset.spec,
            Self.format.spec,
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitStatus {
        let format = arguments[Self.format] ?? "text"
        var ruleSet: RuleSet?
        var ruleSetJSON: JSON?
        if let name = arguments[Self.ruleset] {
            let socket = DaemonConnection.socketPath(arguments)
            let timeout = try DaemonConnection.timeout(arguments)
            let client = UnixHTTPClient(socketPath: socket, timeout: timeout)
            do {
                let response = try client.request("GET", "/v1/rulesets/" + name)
                guard response.status == 200, let json = try? JSONParser.parse(response.body) else {
                    throw InputError(description: ErrorAnswer(status: response.status, body: response.body).message)
                }
                ruleSetJSON = json
                do {
                    ruleSet = try RuleSet(answer: json)
                } catch {
                    throw InputError(description: "the daemon's description of rule set \(name) is not one auditctl can read: \(error)")
                }
            } catch let error as ClientError {
                Console.error("auditctl: " + (error.unreachable ? DaemonConnection.unreachableMessage(error, socket: socket) : error.description))
                return .usageOrInput
            }
        }
        let rules = ruleSet.map { set in set.entries.map(\.rule) } ?? BuiltInRules.all.sorted { $0.description.id < $1.description.id }
        switch format {
        case "markdown":
            Console.out(RuleDocumentation.markdown(rules: rules, ruleSet: ruleSet))
        case "schema":
            Console.out(RuleSetSchema.json().rendered(pretty: true) + "\n")
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
}
