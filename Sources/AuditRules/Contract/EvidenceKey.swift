/// The name of one piece of a finding's evidence (`ratio`, `foreground`, `estimated-font-size`):
/// one vocabulary for every rule, each key declared here once. A rule reports
/// `[(.ratio, .number(2.9))]` — a key that is not declared here does not compile — and its
/// message templates name keys as `${ratio}`. Which keys a rule may report is the rule's
/// own declaration (``RuleResults/evidence``: its messages' keys and ``RuleResults/moreEvidence``);
/// its examples fail on a key it reports undeclared, or a key its message names and its
/// finding lacks. In reports, evidence members are the raw names.
/// Each key is a computed, inlinable constant: a string literal, with no global to
/// initialise or retain on a finding's hot path.
public struct EvidenceKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    @inlinable public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The colour difference under one simulated colour-vision deficiency
    /// (`delta-e-protanopia`…).
    public static func deltaE(under deficiency: ColorMath.Deficiency) -> EvidenceKey {
        EvidenceKey(rawValue: "delta-e-\(deficiency.rawValue)")
    }

    @inlinable public static var ancestor: EvidenceKey { EvidenceKey(rawValue: "ancestor") }
    @inlinable public static var ancestorSize: EvidenceKey { EvidenceKey(rawValue: "ancestor-size") }
    @inlinable public static var apcaLc: EvidenceKey { EvidenceKey(rawValue: "apca-lc") }
    @inlinable public static var attribute: EvidenceKey { EvidenceKey(rawValue: "attribute") }
    @inlinable public static var available: EvidenceKey { EvidenceKey(rawValue: "available") }
    @inlinable public static var background: EvidenceKey { EvidenceKey(rawValue: "background") }
    @inlinable public static var backgroundShare: EvidenceKey { EvidenceKey(rawValue: "background-share") }
    @inlinable public static var border: EvidenceKey { EvidenceKey(rawValue: "border") }
    @inlinable public static var clickableAncestor: EvidenceKey { EvidenceKey(rawValue: "clickable-ancestor") }
    @inlinable public static var codePoint: EvidenceKey { EvidenceKey(rawValue: "code-point") }
    @inlinable public static var colors: EvidenceKey { EvidenceKey(rawValue: "colors") }
    @inlinable public static var confidence: EvidenceKey { EvidenceKey(rawValue: "confidence") }
    @inlinable public static var conflictsWith: EvidenceKey { EvidenceKey(rawValue: "conflicts-with") }
    @inlinable public static var contentSize: EvidenceKey { EvidenceKey(rawValue: "content-size") }
    @inlinable public static var count: EvidenceKey { EvidenceKey(rawValue: "count") }
    @inlinable public static var crop: EvidenceKey { EvidenceKey(rawValue: "crop") }
    @inlinable public static var cut: EvidenceKey { EvidenceKey(rawValue: "cut") }
    @inlinable public static var declaredForeground: EvidenceKey { EvidenceKey(rawValue: "declared-foreground") }
    @inlinable public static var deltaE: EvidenceKey { EvidenceKey(rawValue: "delta-e") }
    @inlinable public static var density: EvidenceKey { EvidenceKey(rawValue: "density") }
    @inlinable public static var description: EvidenceKey { EvidenceKey(rawValue: "description") }
    @inlinable public static var drawsContent: EvidenceKey { EvidenceKey(rawValue: "draws-content") }
    @inlinable public static var edgeMinimum: EvidenceKey { EvidenceKey(rawValue: "edge-minimum") }
    @inlinable public static var elements: EvidenceKey { EvidenceKey(rawValue: "elements") }
    @inlinable public static var estimatedFontSize: EvidenceKey { EvidenceKey(rawValue: "estimated-font-size") }
    @inlinable public static var expected: EvidenceKey { EvidenceKey(rawValue: "expected") }
    @inlinable public static var fill: EvidenceKey { EvidenceKey(rawValue: "fill") }
    @inlinable public static var fontSize: EvidenceKey { EvidenceKey(rawValue: "font-size") }
    @inlinable public static var fontWeight: EvidenceKey { EvidenceKey(rawValue: "font-weight") }
    @inlinable public static var foreground: EvidenceKey { EvidenceKey(rawValue: "foreground") }
    @inlinable public static var foregroundShare: EvidenceKey { EvidenceKey(rawValue: "foreground-share") }
    @inlinable public static var found: EvidenceKey { EvidenceKey(rawValue: "found") }
    @inlinable public static var frame: EvidenceKey { EvidenceKey(rawValue: "frame") }
    @inlinable public static var framed: EvidenceKey { EvidenceKey(rawValue: "framed") }
    @inlinable public static var guideline: EvidenceKey { EvidenceKey(rawValue: "guideline") }
    @inlinable public static var height: EvidenceKey { EvidenceKey(rawValue: "height") }
    @inlinable public static var honorsReduceMotion: EvidenceKey { EvidenceKey(rawValue: "honors-reduce-motion") }
    @inlinable public static var image: EvidenceKey { EvidenceKey(rawValue: "image") }
    @inlinable public static var kind: EvidenceKey { EvidenceKey(rawValue: "kind") }
    @inlinable public static var label: EvidenceKey { EvidenceKey(rawValue: "label") }
    @inlinable public static var language: EvidenceKey { EvidenceKey(rawValue: "language") }
    @inlinable public static var largeContentViewer: EvidenceKey { EvidenceKey(rawValue: "large-content-viewer") }
    @inlinable public static var largeText: EvidenceKey { EvidenceKey(rawValue: "large-text") }
    @inlinable public static var limit: EvidenceKey { EvidenceKey(rawValue: "limit") }
    @inlinable public static var line: EvidenceKey { EvidenceKey(rawValue: "line") }
    @inlinable public static var lineHeight: EvidenceKey { EvidenceKey(rawValue: "line-height") }
    @inlinable public static var lines: EvidenceKey { EvidenceKey(rawValue: "lines") }
    @inlinable public static var link: EvidenceKey { EvidenceKey(rawValue: "link") }
    @inlinable public static var magicTap: EvidenceKey { EvidenceKey(rawValue: "magic-tap") }
    @inlinable public static var modal: EvidenceKey { EvidenceKey(rawValue: "modal") }
    @inlinable public static var name: EvidenceKey { EvidenceKey(rawValue: "name") }
    @inlinable public static var names: EvidenceKey { EvidenceKey(rawValue: "names") }
    @inlinable public static var needed: EvidenceKey { EvidenceKey(rawValue: "needed") }
    @inlinable public static var nested: EvidenceKey { EvidenceKey(rawValue: "nested") }
    @inlinable public static var other: EvidenceKey { EvidenceKey(rawValue: "other") }
    @inlinable public static var others: EvidenceKey { EvidenceKey(rawValue: "others") }
    @inlinable public static var overlap: EvidenceKey { EvidenceKey(rawValue: "overlap") }
    @inlinable public static var owner: EvidenceKey { EvidenceKey(rawValue: "owner") }
    @inlinable public static var parts: EvidenceKey { EvidenceKey(rawValue: "parts") }
    @inlinable public static var pattern: EvidenceKey { EvidenceKey(rawValue: "pattern") }
    @inlinable public static var pausable: EvidenceKey { EvidenceKey(rawValue: "pausable") }
    @inlinable public static var placeholder: EvidenceKey { EvidenceKey(rawValue: "placeholder") }
    @inlinable public static var platform: EvidenceKey { EvidenceKey(rawValue: "platform") }
    @inlinable public static var ratio: EvidenceKey { EvidenceKey(rawValue: "ratio") }
    @inlinable public static var reduceMotion: EvidenceKey { EvidenceKey(rawValue: "reduce-motion") }
    @inlinable public static var required: EvidenceKey { EvidenceKey(rawValue: "required") }
    @inlinable public static var role: EvidenceKey { EvidenceKey(rawValue: "role") }
    /// Why a finding has the severity it has where its rule lowers it (a notice): printed
    /// after the message in the text format.
    @inlinable public static var severityReason: EvidenceKey { EvidenceKey(rawValue: "severity-reason") }
    @inlinable public static var scalesWithContentSize: EvidenceKey { EvidenceKey(rawValue: "scales-with-content-size") }
    @inlinable public static var seconds: EvidenceKey { EvidenceKey(rawValue: "seconds") }
    @inlinable public static var siblingLineHeight: EvidenceKey { EvidenceKey(rawValue: "sibling-line-height") }
    @inlinable public static var siblingSize: EvidenceKey { EvidenceKey(rawValue: "sibling-size") }
    @inlinable public static var source: EvidenceKey { EvidenceKey(rawValue: "source") }
    @inlinable public static var speech: EvidenceKey { EvidenceKey(rawValue: "speech") }
    @inlinable public static var stated: EvidenceKey { EvidenceKey(rawValue: "stated") }
    @inlinable public static var supportsEscape: EvidenceKey { EvidenceKey(rawValue: "supports-escape") }
    @inlinable public static var text: EvidenceKey { EvidenceKey(rawValue: "text") }
    @inlinable public static var textSize: EvidenceKey { EvidenceKey(rawValue: "text-size") }
    @inlinable public static var textStyle: EvidenceKey { EvidenceKey(rawValue: "text-style") }
    @inlinable public static var token: EvidenceKey { EvidenceKey(rawValue: "token") }
    @inlinable public static var traits: EvidenceKey { EvidenceKey(rawValue: "traits") }
    @inlinable public static var type: EvidenceKey { EvidenceKey(rawValue: "type") }
    @inlinable public static var uiautomatorNaf: EvidenceKey { EvidenceKey(rawValue: "uiautomator-naf") }
    @inlinable public static var underline: EvidenceKey { EvidenceKey(rawValue: "underline") }
    /// The unit of sizes on the platform: `pt` (iOS, web) or `dp` (Android).
    @inlinable public static var unit: EvidenceKey { EvidenceKey(rawValue: "unit") }
    @inlinable public static var value: EvidenceKey { EvidenceKey(rawValue: "value") }
    @inlinable public static var visible: EvidenceKey { EvidenceKey(rawValue: "visible") }
    @inlinable public static var width: EvidenceKey { EvidenceKey(rawValue: "width") }
    @inlinable public static var word: EvidenceKey { EvidenceKey(rawValue: "word") }
    /// The expression of a rule set's custom XPath rule.
    @inlinable public static var xpath: EvidenceKey { EvidenceKey(rawValue: "xpath") }
}
