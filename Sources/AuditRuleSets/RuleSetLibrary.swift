import Foundation

/// All rule sets read from one or more directories of `*.json` files, resolved
/// (`extends` followed, parameters checked) and ready to use.
public struct RuleSetLibrary: Sendable {
    public private(set) var sets: [String: RuleSet]

    public init(sets: [RuleSet]) {
        self.sets = Dictionary(sets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var names: [String] { sets.keys.sorted() }

    public subscript(name: String) -> RuleSet? { sets[name] }

    /// The set a snapshot's platform picks (docs/findings.md, "Rules and rule sets"): `ios-default`, `android-default`,
    /// else `wcag22-aa`.
    public func defaultSet(for platform: Platform) -> RuleSet? {
        switch platform {
        case .ios: sets["ios-default"] ?? sets["wcag22-aa"]
        case .android: sets["android-default"] ?? sets["wcag22-aa"]
        default: sets["wcag22-aa"]
        }
    }

    /// Reads every `*.json` file in the directories. A name defined twice keeps the first
    /// directory's file. Any problem throws, naming the file, key and reason.
    public static func load(directories: [String]) throws(RuleSetError) -> RuleSetLibrary {
        var documents: [String: (file: String, json: JSON)] = [:]
        for directory in directories {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw RuleSetError(file: directory, key: "", reason: "cannot read the rule-set directory")
            }
            for name in names.sorted() where name.hasSuffix(".json") {
                let path = (directory as NSString).appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw RuleSetError(file: path, key: "", reason: "cannot read the file")
                }
                let json: JSON
                do {
                    json = try JSONParser.parse([UInt8](data))
                } catch {
                    throw RuleSetError(file: path, key: "", reason: "not valid JSON at \(error.line):\(error.column): \(error.message)")
                }
                guard let setName = json["name"]?.stringValue, !setName.isEmpty else {
                    throw RuleSetError(file: path, key: "name", reason: "missing; every rule set needs a name")
                }
                if documents[setName] == nil { documents[setName] = (path, json) }
            }
        }
        return try resolve(documents)
    }

    /// How many sets an `extends` chain may hold.
    public static let maxExtendsDepth = 32

    /// Resolves parsed rule-set documents (name → file and JSON).
    public static func resolve(_ documents: [String: (file: String, json: JSON)]) throws(RuleSetError) -> RuleSetLibrary {
        var resolved: [String: RuleSet] = [:]
        func resolveSet(_ name: String, chain: [String]) throws(RuleSetError) -> RuleSet {
            if let done = resolved[name] { return done }
            guard let (file, json) = documents[name] else {
                throw RuleSetError(
                    file: chain.last.flatMap { documents[$0]?.file } ?? name, key: "extends",
                    reason: "unknown rule set \"\(name)\"")
            }
            // Resolution recurses once per level: a chain of 20,000 sets overflowed the stack.
            if chain.count >= RuleSetLibrary.maxExtendsDepth {
                throw RuleSetError(
                    file: file, key: "extends",
                    reason: "the extends chain is deeper than \(RuleSetLibrary.maxExtendsDepth) sets (\(chain.prefix(3).joined(separator: " → ")) → …); flatten it")
            }
            if chain.contains(name) {
                throw RuleSetError(
                    file: file, key: "extends",
                    reason: "cycle: " + (chain + [name]).joined(separator: " → "))
            }
            let set = try RuleSetReader(file: file, json: json).read { parent throws(RuleSetError) in
                try resolveSet(parent, chain: chain + [name])
            }
            resolved[name] = set
            return set
        }
        for name in documents.keys.sorted() { _ = try resolveSet(name, chain: []) }
        return RuleSetLibrary(sets: Array(resolved.values))
    }
}

/// Reads one rule-set document against its (already resolved) parent.
struct RuleSetReader {
    let file: String
    let json: JSON

    func fail(_ key: String, _ reason: String) -> RuleSetError { RuleSetError(file: file, key: key, reason: reason) }

    /// A misspelt key (`"elemnt"`) would otherwise be ignored, and the suppression or rule
    /// silently mean something else.
    func refuseUnknownKeys(_ item: JSON, at key: String, known: [String]) throws(RuleSetError) {
        guard let members = item.objectValue else { throw fail(key, "expected an object") }
        for (name, _) in members where !known.contains(name) {
            var reason = "unknown key; expected one of \(known.joined(separator: ", "))"
            if let close = EditDistance.closest(to: name, among: known, limit: 3) { reason += " (did you mean \"\(close)\"?)" }
            throw fail("\(key).\(name)", reason)
        }
    }

    func read(parent resolveParent: (String) throws(RuleSetError) -> RuleSet) throws(RuleSetError) -> RuleSet {
        guard let members = json.objectValue else { throw fail("", "a rule set is a JSON object") }
        let known = ["name", "description", "extends", "defaults", "rules", "suppress", "custom", "$schema", "comment"]
        for (key, _) in members where !known.contains(key) {
            throw fail(key, "unknown key; expected one of \(known.joined(separator: ", "))")
        }
        let name = json["name"]?.stringValue ?? ""
        let extends = json["extends"].flatMap { $0.stringValue }
        if json["extends"] != nil, extends == nil { throw fail("extends", "expected the name of a rule set") }
        let parent = try extends.map { name throws(RuleSetError) in try resolveParent(name) }

        var entries: [String: RuleSet.Entry] = [:]
        for entry in parent?.entries ?? [] { entries[entry.id] = entry }
        // The built-in rules that declare themselves enabled in a group, at their own
        // severity; `rules` then tunes or disables them.
        if let defaults = json["defaults"] {
            let names = DefaultRuleSet.allCases.map(\.rawValue)
            guard let text = defaults.stringValue, let group = DefaultRuleSet(rawValue: text) else {
                throw fail("defaults", "expected one of \(names.joined(separator: ", ")): the rules that declare themselves enabled in it")
            }
            for rule in BuiltInRules.all where rule.description.enabledIn.contains(group) && entries[rule.description.id] == nil {
                entries[rule.description.id] = RuleSet.Entry(rule: rule, severity: rule.description.severity, parameters: [:])
            }
        }
        if let rules = json["rules"] {
            guard let ruleMembers = rules.objectValue else { throw fail("rules", "expected an object of rule id → settings") }
            for (id, settings) in ruleMembers {
                let key = "rules.\(id)"
                guard let rule = BuiltInRules.rule(id: id) else {
                    var reason = "unknown rule"
                    if let close = BuiltInRules.closestID(to: id) { reason += "; did you mean \"\(close)\"?" }
                    throw fail(key, reason)
                }
                let description = rule.description
                // A former id (`voiceover.traits`) names the rule under its id now.
                let id = description.id
                var entry = entries[id] ?? RuleSet.Entry(rule: rule, severity: description.severity, parameters: [:])
                var enabled = true
                switch settings {
                case .bool(let flag):
                    enabled = flag
                case .object(let fields):
                    for (field, value) in fields {
                        switch field {
                        case "enabled":
                            guard let flag = value.boolValue else { throw fail("\(key).enabled", "expected true or false") }
                            enabled = flag
                        case "severity":
                            guard let text = value.stringValue, let severity = Severity(rawValue: text) else {
                                throw fail("\(key).severity", "expected error, warning or notice")
                            }
                            entry.severity = severity
                        case "parameters":
                            guard let parameters = value.objectValue else { throw fail("\(key).parameters", "expected an object") }
                            for (parameterName, parameterValue) in parameters {
                                guard let parameter = description.parameters.first(where: { $0.name == parameterName }) else {
                                    let names = description.parameters.map(\.name)
                                    throw fail(
                                        "\(key).parameters.\(parameterName)",
                                        names.isEmpty ? "this rule takes no parameters" : "unknown parameter; expected one of \(names.joined(separator: ", "))")
                                }
                                if let problem = parameter.problem(with: parameterValue) {
                                    throw fail("\(key).parameters.\(parameterName)", problem)
                                }
                                entry.parameters[parameterName] = parameterValue
                            }
                        default:
                            throw fail("\(key).\(field)", "unknown setting; expected enabled, severity or parameters")
                        }
                    }
                default:
                    throw fail(key, "expected true, false or an object with enabled, severity, parameters")
                }
                entries[id] = enabled ? entry : nil
            }
        }

        var suppressions = parent?.suppressions ?? []
        if let list = json["suppress"] {
            guard let items = list.arrayValue else { throw fail("suppress", "expected a list") }
            for (offset, item) in items.enumerated() {
                let key = "suppress[\(offset)]"
                try refuseUnknownKeys(item, at: key, known: ["rule", "element", "screen", "reason", "comment"])
                guard let rule = item["rule"]?.stringValue else { throw fail("\(key).rule", "expected a rule id or glob") }
                if !rule.contains("*"), !rule.contains("?"), BuiltInRules.rule(id: rule) == nil, !rule.hasPrefix("custom.") {
                    throw fail("\(key).rule", "unknown rule \"\(rule)\"")
                }
                let element = item["element"]?.stringValue
                let screen = item["screen"]?.stringValue
                if element == nil, screen == nil {
                    throw fail(key, "a suppression needs an element id glob and/or a screen glob")
                }
                suppressions.append(
                    RuleSet.Suppression(
                        rule: Glob(rule), element: element.map(Glob.init),
                        screen: screen.map(Glob.init), reason: item["reason"]?.stringValue))
            }
        }

        var customRules = parent?.customRules ?? []
        if let list = json["custom"] {
            guard let items = list.arrayValue else { throw fail("custom", "expected a list") }
            for (offset, item) in items.enumerated() {
                let key = "custom[\(offset)]"
                try refuseUnknownKeys(item, at: key, known: ["id", "xpath", "title", "severity", "message", "wcag", "comment"])
                guard let id = item["id"]?.stringValue, !id.isEmpty else { throw fail("\(key).id", "expected a rule id") }
                if BuiltInRules.rule(id: id) != nil { throw fail("\(key).id", "\"\(id)\" is a built-in rule id") }
                guard let expression = item["xpath"]?.stringValue else { throw fail("\(key).xpath", "expected an XPath expression") }
                if let problem = XPathRule.compileProblem(expression) { throw fail("\(key).xpath", problem) }
                let severityText = item["severity"]?.stringValue ?? "warning"
                guard let severity = Severity(rawValue: severityText) else { throw fail("\(key).severity", "expected error, warning or notice") }
                let wcag = item["wcag"]?.arrayValue?.compactMap { (value: JSON) in value.stringValue } ?? []
                customRules.removeAll { $0.id == id }
                customRules.append(
                    XPathRule(
                        id: id, title: item["title"]?.stringValue ?? id, expression: expression,
                        severity: severity, message: item["message"]?.stringValue ?? "Matched \(id)",
                        wcag: wcag))
            }
        }
        return RuleSet(
            name: name, summary: json["description"]?.stringValue ?? "", file: file, extends: extends,
            entries: Array(entries.values), suppressions: suppressions, customRules: customRules)
    }
}
