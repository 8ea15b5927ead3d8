/// The name of one piece of a finding's evidence (`ratio`, `foreground`, `estimated-font-size`):
/// one vocabulary for every rule, declared here once. A rule reports
/// `[(.ratio, .number(2.9))]` — a key that is not declared does not compile — and its
/// message templates name keys as `${ratio}`; a test checks that every `${…}` of every
/// rule's messages is one of these. In reports, evidence members are the raw names.
public struct EvidenceKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Every declared key, for the template check and the docs.
    public static let all: [EvidenceKey] = [
        .ancestor,
        .ancestorSize,
        .apcaLc,
        .attribute,
        .available,
        .background,
        .backgroundShare,
        .border,
        .clickableAncestor,
        .codePoint,
        .colors,
        .conflictsWith,
        .contentSize,
        .count,
        .crop,
        .declaredForeground,
        .deltaE,
        .description,
        .drawsContent,
        .edgeMinimum,
        .elements,
        .estimatedFontSize,
        .expected,
        .fill,
        .fontSize,
        .fontWeight,
        .foreground,
        .foregroundShare,
        .found,
        .frame,
        .framed,
        .guideline,
        .height,
        .honorsReduceMotion,
        .image,
        .kind,
        .label,
        .language,
        .largeContentViewer,
        .largeText,
        .limit,
        .line,
        .lines,
        .link,
        .magicTap,
        .modal,
        .name,
        .names,
        .needed,
        .nested,
        .other,
        .others,
        .overlap,
        .owner,
        .parts,
        .pattern,
        .pausable,
        .placeholder,
        .platform,
        .ratio,
        .reduceMotion,
        .required,
        .role,
        .scalesWithContentSize,
        .seconds,
        .siblingSize,
        .source,
        .speech,
        .stated,
        .supportsEscape,
        .text,
        .textSize,
        .textStyle,
        .token,
        .traits,
        .type,
        .uiautomatorNaf,
        .underline,
        .value,
        .visible,
        .width,
        .word,
        .xpath,
    ]

    /// The colour difference under one simulated colour-vision deficiency
    /// (`delta-e-protanopia`…).
    public static func deltaE(under deficiency: ColorMath.Deficiency) -> EvidenceKey {
        EvidenceKey(rawValue: "delta-e-\(deficiency.rawValue)")
    }

    public static let ancestor = EvidenceKey(rawValue: "ancestor")
    public static let ancestorSize = EvidenceKey(rawValue: "ancestor-size")
    public static let apcaLc = EvidenceKey(rawValue: "apca-lc")
    public static let attribute = EvidenceKey(rawValue: "attribute")
    public static let available = EvidenceKey(rawValue: "available")
    public static let background = EvidenceKey(rawValue: "background")
    public static let backgroundShare = EvidenceKey(rawValue: "background-share")
    public static let border = EvidenceKey(rawValue: "border")
    public static let clickableAncestor = EvidenceKey(rawValue: "clickable-ancestor")
    public static let codePoint = EvidenceKey(rawValue: "code-point")
    public static let colors = EvidenceKey(rawValue: "colors")
    public static let conflictsWith = EvidenceKey(rawValue: "conflicts-with")
    public static let contentSize = EvidenceKey(rawValue: "content-size")
    public static let count = EvidenceKey(rawValue: "count")
    public static let crop = EvidenceKey(rawValue: "crop")
    public static let declaredForeground = EvidenceKey(rawValue: "declared-foreground")
    public static let deltaE = EvidenceKey(rawValue: "delta-e")
    public static let description = EvidenceKey(rawValue: "description")
    public static let drawsContent = EvidenceKey(rawValue: "draws-content")
    public static let edgeMinimum = EvidenceKey(rawValue: "edge-minimum")
    public static let elements = EvidenceKey(rawValue: "elements")
    public static let estimatedFontSize = EvidenceKey(rawValue: "estimated-font-size")
    public static let expected = EvidenceKey(rawValue: "expected")
    public static let fill = EvidenceKey(rawValue: "fill")
    public static let fontSize = EvidenceKey(rawValue: "font-size")
    public static let fontWeight = EvidenceKey(rawValue: "font-weight")
    public static let foreground = EvidenceKey(rawValue: "foreground")
    public static let foregroundShare = EvidenceKey(rawValue: "foreground-share")
    public static let found = EvidenceKey(rawValue: "found")
    public static let frame = EvidenceKey(rawValue: "frame")
    public static let framed = EvidenceKey(rawValue: "framed")
    public static let guideline = EvidenceKey(rawValue: "guideline")
    public static let height = EvidenceKey(rawValue: "height")
    public static let honorsReduceMotion = EvidenceKey(rawValue: "honors-reduce-motion")
    public static let image = EvidenceKey(rawValue: "image")
    public static let kind = EvidenceKey(rawValue: "kind")
    public static let label = EvidenceKey(rawValue: "label")
    public static let language = EvidenceKey(rawValue: "language")
    public static let largeContentViewer = EvidenceKey(rawValue: "large-content-viewer")
    public static let largeText = EvidenceKey(rawValue: "large-text")
    public static let limit = EvidenceKey(rawValue: "limit")
    public static let line = EvidenceKey(rawValue: "line")
    public static let lines = EvidenceKey(rawValue: "lines")
    public static let link = EvidenceKey(rawValue: "link")
    public static let magicTap = EvidenceKey(rawValue: "magic-tap")
    public static let modal = EvidenceKey(rawValue: "modal")
    public static let name = EvidenceKey(rawValue: "name")
    public static let names = EvidenceKey(rawValue: "names")
    public static let needed = EvidenceKey(rawValue: "needed")
    public static let nested = EvidenceKey(rawValue: "nested")
    public static let other = EvidenceKey(rawValue: "other")
    public static let others = EvidenceKey(rawValue: "others")
    public static let overlap = EvidenceKey(rawValue: "overlap")
    public static let owner = EvidenceKey(rawValue: "owner")
    public static let parts = EvidenceKey(rawValue: "parts")
    public static let pattern = EvidenceKey(rawValue: "pattern")
    public static let pausable = EvidenceKey(rawValue: "pausable")
    public static let placeholder = EvidenceKey(rawValue: "placeholder")
    public static let platform = EvidenceKey(rawValue: "platform")
    public static let ratio = EvidenceKey(rawValue: "ratio")
    public static let reduceMotion = EvidenceKey(rawValue: "reduce-motion")
    public static let required = EvidenceKey(rawValue: "required")
    public static let role = EvidenceKey(rawValue: "role")
    public static let scalesWithContentSize = EvidenceKey(rawValue: "scales-with-content-size")
    public static let seconds = EvidenceKey(rawValue: "seconds")
    public static let siblingSize = EvidenceKey(rawValue: "sibling-size")
    public static let source = EvidenceKey(rawValue: "source")
    public static let speech = EvidenceKey(rawValue: "speech")
    public static let stated = EvidenceKey(rawValue: "stated")
    public static let supportsEscape = EvidenceKey(rawValue: "supports-escape")
    public static let text = EvidenceKey(rawValue: "text")
    public static let textSize = EvidenceKey(rawValue: "text-size")
    public static let textStyle = EvidenceKey(rawValue: "text-style")
    public static let token = EvidenceKey(rawValue: "token")
    public static let traits = EvidenceKey(rawValue: "traits")
    public static let type = EvidenceKey(rawValue: "type")
    public static let uiautomatorNaf = EvidenceKey(rawValue: "uiautomator-naf")
    public static let underline = EvidenceKey(rawValue: "underline")
    public static let value = EvidenceKey(rawValue: "value")
    public static let visible = EvidenceKey(rawValue: "visible")
    public static let width = EvidenceKey(rawValue: "width")
    public static let word = EvidenceKey(rawValue: "word")
    /// The expression of a rule set's custom XPath rule.
    public static let xpath = EvidenceKey(rawValue: "xpath")
}
