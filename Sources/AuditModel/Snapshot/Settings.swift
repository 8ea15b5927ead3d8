/// The device's accessibility settings when the snapshot was captured (docs/snapshot-format.md, `<settings>`).
/// `nil` means the snapshot did not say.
public struct Settings: Sendable, Hashable {
    public var reduceMotion: Bool?
    public var differentiateWithoutColor: Bool?
    public var increaseContrast: Bool?
    public var reduceTransparency: Bool?
    public var contentSize: ContentSize?
    public var colorScheme: ColorScheme?

    public init() {}

    /// The content size, `l` when the snapshot did not say.
    public var effectiveContentSize: ContentSize { contentSize ?? .l }
}

/// Dynamic Type content-size categories, smallest first.
public enum ContentSize: String, Sendable, CaseIterable, Comparable {
    case xs, s, m, l, xl, xxl, xxxl, ax1, ax2, ax3, ax4, ax5

    /// `ax1`…`ax5`: the accessibility sizes.
    public var isAccessibilitySize: Bool { self >= .ax1 }

    /// Position on the scale: `xs` is 0, `ax5` is 11.
    public var rank: Int { ContentSize.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: ContentSize, rhs: ContentSize) -> Bool { lhs.rank < rhs.rank }
}

/// Light or dark appearance.
public enum ColorScheme: String, Sendable, CaseIterable {
    case light, dark
}

/// Text styles of Dynamic Type (docs/snapshot-format.md, `text-style`).
public enum TextStyle: String, Sendable, CaseIterable {
    case largeTitle = "large-title"
    case title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2
    case custom

    /// Styles that present a heading.
    public var isHeading: Bool {
        switch self {
        case .largeTitle, .title1, .title2, .title3, .headline: true
        default: false
        }
    }
}

/// Font weights by name, on the CSS/OpenType 100…900 scale (docs/snapshot-format.md, `font-weight`).
public enum FontWeightName {
    public static let table: [(name: String, weight: Int)] = [
        ("ultralight", 100), ("thin", 200), ("light", 300), ("regular", 400), ("medium", 500),
        ("semibold", 600), ("bold", 700), ("heavy", 800), ("black", 900),
    ]

    /// The numeric weight of a name (`bold` → 700), or of a number 1…1000.
    public static func weight(of text: String) -> Int? {
        if let entry = table.first(where: { $0.name == text.lowercased() }) { return entry.weight }
        if let number = Int(text), (1...1000).contains(number) { return number }
        return nil
    }
}

/// The platform a snapshot comes from (docs/snapshot-format.md, `platform`); picks the default rule set.
public enum Platform: String, Sendable, CaseIterable {
    case ios, android, web, other

    /// What the platform measures sizes in, as its people say it: `dp` on Android
    /// (density-independent pixels), `px` (CSS pixels) on the web, `pt` elsewhere.
    public var sizeUnit: String {
        switch self {
        case .android: "dp"
        case .web: "px"
        case .ios, .other: "pt"
        }
    }
}
