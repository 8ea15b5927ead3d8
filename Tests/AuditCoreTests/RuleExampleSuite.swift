import AuditCore
import Testing

/// One test per rule (Swift Testing, parameterized by rule id: `swift test --filter
/// "RuleExampleSuite"` runs them, and each can be run alone): the rule's examples, run
/// against the rule directly, use only the parameters and results its description
/// declares, and none is a duplicate of another.
@Suite struct RuleExampleSuite {
    static let ruleIDs = BuiltInRules.all.map { $0.description.id }

    @Test(arguments: ruleIDs)
    func examplesUseOnlyDeclaredNames(ruleID: String) throws {
        let rule = try #require(BuiltInRules.rule(id: ruleID))
        let description = rule.description
        var seen = Set<String>()
        for example in description.examples {
            let key =
                example.xml + "\u{1F}" + (example.screenshot.map { "\($0)" } ?? "") + "\u{1F}"
                + example.parameters.keys.sorted().map { "\($0)=\(example.parameters[$0].map { "\($0)" } ?? "")" }.joined(separator: ",")
            #expect(seen.insert(key).inserted, "\(ruleID): the example at line \(example.line) repeats an earlier one")
            let snapshot = try TestSupport.snapshot(of: example)
            let run = rule.run(on: snapshot, parameters: example.parameters)
            #expect(run.undeclaredNames.isEmpty, "\(ruleID) example at line \(example.line) uses undeclared \(run.undeclaredNames.sorted())")
            for finding in run.findings {
                #expect(description.messages[finding.resultID] != nil, "\(ruleID): result \(finding.resultID) has no message")
            }
        }
    }

    /// The rule declares its evidence (its messages' keys, and the rest it reports), and
    /// each finding of its examples carries the keys its message names.
    @Test(arguments: ruleIDs)
    func messagesNameDeclaredEvidence(ruleID: String) throws {
        let rule = try #require(BuiltInRules.rule(id: ruleID))
        for (result, template) in rule.description.templates {
            for key in template.placeholders {
                #expect(rule.description.evidence.contains(key), "\(ruleID) \(result): ${\(key.rawValue)} is not among its declared evidence")
            }
        }
        for example in rule.description.examples {
            let run = rule.run(on: try TestSupport.snapshot(of: example), parameters: example.parameters)
            for finding in run.findings {
                let named = rule.description.templates[finding.resultID]?.placeholders ?? []
                let missing = named.filter { finding.evidence($0) == nil }
                #expect(missing.isEmpty, "\(ruleID) example at line \(example.line): \(finding.resultID) names \(missing.map(\.rawValue)) but its evidence has no such key")
            }
        }
    }

    @Test func everyRuleIDIsUniqueAndRegistered() {
        #expect(Set(Self.ruleIDs).count == Self.ruleIDs.count)
        for id in Self.ruleIDs { #expect(BuiltInRules.rule(id: id) != nil, "\(id)") }
    }
}
