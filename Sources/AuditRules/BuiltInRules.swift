/// The registry of built-in rules, ordered by id. Adding a rule means adding its type here;
/// a test checks that ids are unique and every rule has examples.
public enum BuiltInRules {
    public static let all: [any Rule.Type] = [
        ColorOnlyGroupRule.self,
        ColorOnlyLinkRule.self,
        ColorOnlyStateRule.self,
        ContrastNonTextRule.self,
        ContrastTextRule.self,
        DynamicTypeFixedSizeRule.self,
        DynamicTypeLargeContentViewerRule.self,
        DynamicTypeTruncatedRule.self,
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
        HeaderTraitRule.self,
        ModalEscapeRule.self,
        TraitsRule.self,
        UngroupedCellRule.self,
    ]

    private static let byID: [String: any Rule.Type] = Dictionary(
        all.map { ($0.description.id, $0) }, uniquingKeysWith: { first, _ in first })

    public static func rule(id: String) -> (any Rule.Type)? { byID[id] }

    /// The known id closest to a misspelt one.
    public static func closestID(to id: String) -> String? {
        EditDistance.closest(to: id, among: all.map { $0.description.id }, limit: 4)
    }
}
