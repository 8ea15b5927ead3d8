/// Accessibility traits of an element (docs/snapshot-format.md, `traits`), as a bit set.
public struct Traits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let button = Traits(rawValue: 1 << 0)
    public static let link = Traits(rawValue: 1 << 1)
    public static let header = Traits(rawValue: 1 << 2)
    public static let image = Traits(rawValue: 1 << 3)
    public static let selected = Traits(rawValue: 1 << 4)
    public static let adjustable = Traits(rawValue: 1 << 5)
    public static let staticText = Traits(rawValue: 1 << 6)
    public static let notEnabled = Traits(rawValue: 1 << 7)
    public static let summaryElement = Traits(rawValue: 1 << 8)
    public static let updatesFrequently = Traits(rawValue: 1 << 9)
    public static let causesPageTurn = Traits(rawValue: 1 << 10)
    public static let searchField = Traits(rawValue: 1 << 11)
    public static let playsSound = Traits(rawValue: 1 << 12)
    public static let startsMediaSession = Traits(rawValue: 1 << 13)
    public static let allowsDirectInteraction = Traits(rawValue: 1 << 14)
    public static let tabBar = Traits(rawValue: 1 << 15)
    /// Appium's `KeyboardKey`: a key of the system keyboard.
    public static let keyboardKey = Traits(rawValue: 1 << 16)
    /// Appium's `ToggleButton` (iOS 17+).
    public static let toggleButton = Traits(rawValue: 1 << 17)

    /// Every trait with its native-format name and its Appium (CamelCase) name.
    public static let vocabulary: [(trait: Traits, native: String, appium: String)] = [
        (.button, "button", "Button"), (.link, "link", "Link"), (.header, "header", "Header"),
        (.image, "image", "Image"), (.selected, "selected", "Selected"),
        (.adjustable, "adjustable", "Adjustable"), (.staticText, "static-text", "StaticText"),
        (.notEnabled, "not-enabled", "NotEnabled"), (.summaryElement, "summary-element", "SummaryElement"),
        (.updatesFrequently, "updates-frequently", "UpdatesFrequently"),
        (.causesPageTurn, "causes-page-turn", "CausesPageTurn"), (.searchField, "search-field", "SearchField"),
        (.playsSound, "plays-sound", "PlaysSound"), (.startsMediaSession, "starts-media-session", "StartsMediaSession"),
        (.allowsDirectInteraction, "allows-direct-interaction", "AllowsDirectInteraction"),
        (.tabBar, "tab-bar", "TabBar"), (.keyboardKey, "keyboard-key", "KeyboardKey"),
        (.toggleButton, "toggle-button", "ToggleButton"),
    ]

    /// Reads one trait name in either spelling; `nil` if unknown.
    public static func named(_ name: Substring) -> Traits? {
        for entry in vocabulary where entry.native == name || entry.appium == name {
            return entry.trait
        }
        return nil
    }

    /// Reads a trait list separated by spaces and/or commas (`"header"`, `"Image, Button"`).
    /// Unknown names are ignored: newer platforms add traits.
    public static func parse(_ text: String) -> Traits {
        var traits: Traits = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }) {
            if let trait = named(word) { traits.insert(trait) }
        }
        return traits
    }

    /// The native names of the traits present, in vocabulary order.
    public var names: [String] {
        Traits.vocabulary.filter { contains($0.trait) }.map(\.native)
    }
}
