/// The registry of built-in rules, by family (rule sets, reports and docs order them by id).
/// Adding a rule means adding its type here;
/// a test checks that ids are unique and every rule has examples.
public enum BuiltInRules {
    public static let all: [any Rule.Type] = [
        ColorOnlyGroupRule.self,
        ColorOnlyLinkRule.self,
        ColorOnlyStateRule.self,
        ContrastNonTextRule.self,
        ContrastTextRule.self,
        TextScalingFixedSizeRule.self,
        TextScalingLargeContentViewerRule.self,
        TextScalingTruncatedRule.self,
        LabelDuplicateRule.self,
        LabelEditableDescriptionRule.self,
        LabelFilenameRule.self,
        LabelMissingRule.self,
        LabelRedundantTraitRule.self,
        LabelUnreadableRule.self,
        MotionAutoplayRule.self,
        MotionReduceMotionRule.self,
        HiddenControlRule.self,
        BehindModalRule.self,
        ReadingOrderRule.self,
        SameSpeechRule.self,
        TextTruncatedRule.self,
        TextUnexposedRule.self,
        LabelInNameRule.self,
        SilentStopRule.self,
        NoHeadingsRule.self,
        UnreadTextRule.self,
        InvalidValueRule.self,
        UnauditableRule.self,
        TargetDuplicateRule.self,
        TargetSizeRule.self,
        TargetSpacingRule.self,
        CustomDrawnRule.self,
        HeadingRule.self,
        ModalEscapeRule.self,
        RoleRule.self,
        UngroupedCellRule.self,
    ]

    /// Each rule by its id and by each of its former ids (``RuleDescription/aliases``).
    private static let byID: [String: any Rule.Type] = Dictionary(
        all.flatMap { rule in ([rule.description.id] + rule.description.aliases).map { ($0, rule) } }, uniquingKeysWith: { first, _ in first })

    /// The rule of `id`, or of a former id of it.
    public static func rule(id: String) -> (any Rule.Type)? { byID[id] }

    /// The id `id` names now: a former id's rule's id, else `id` itself (a custom rule's).
    public static func canonicalID(_ id: String) -> String { byID[id]?.description.id ?? id }

    /// Every id a rule has been known by, now first: what a suppression's glob is matched
    /// against, so `voiceover.*` written before the rename still suppresses.
    public static func names(of id: String) -> [String] {
        guard let description = byID[id]?.description else { return [id] }
        return [description.id] + description.aliases
    }

    /// What a finding's fingerprint is made of for rule `id`: the first id the rule had, so
    /// renaming a rule moves no finding's identity (a baseline or trend made before it still
    /// matches).
    public static func fingerprintID(_ id: String) -> String {
        guard let description = byID[id]?.description else { return id }
        return description.aliases.first ?? description.id
    }

    /// The known id closest to a misspelt one.
    public static func closestID(to id: String) -> String? {
        EditDistance.closest(to: id, among: all.flatMap { [$0.description.id] + $0.description.aliases }, limit: 4)
    }
}
