import AuditCore

extension RuleSet {
    /// A rule set rebuilt from the daemon's description of it (`GET /v1/rulesets/NAME`):
    /// its built-in rules with their severities and parameters, and its custom XPath rules.
    /// A rule this auditctl does not know (a newer daemon) is left out.
    package init(answer json: JSON) throws(AnswerDecodingError) {
        let fields = try JSONFields(json, at: "")
        let entries = try fields.objects("rules") { (rule: JSONFields) throws(AnswerDecodingError) -> RuleSet.Entry? in
            guard let type = BuiltInRules.rule(id: try rule.string("id")) else { return nil }
            let parameters = rule.value("parameters") == nil ? [] : try rule.object("parameters").members
            return RuleSet.Entry(
                rule: type, severity: try rule.severity("severity"),
                parameters: Dictionary(parameters, uniquingKeysWith: { first, _ in first }))
        }
        let custom =
            fields.value("custom") == nil
            ? []
            : try fields.objects("custom") { (rule: JSONFields) throws(AnswerDecodingError) in
                XPathRule(
                    id: try rule.string("id"), title: try rule.string("id"), expression: try rule.string("xpath"),
                    severity: try rule.severity("severity"), message: "", wcag: try rule.strings("wcag", optional: true))
            }
        self.init(
            name: try fields.string("name"), summary: try fields.optionalString("description") ?? "",
            extends: try fields.optionalString("extends"), entries: entries.compactMap { $0 }, customRules: custom)
    }
}
