/// What a snapshot knows, which rules ask instead of asking where it came from. A rule
/// that needs colours checks ``declaredColors`` (and, once screenshots are read, colours
/// from pixels), never the dialect: each dialect states what it carries
/// (``SnapshotDialect/capabilities``), and every rule follows.
public struct SnapshotCapabilities: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Foreground, background and border colours are declared on elements (an element
    /// without one has none known). Without it, colour rules report `incomplete`.
    public static let declaredColors = SnapshotCapabilities(rawValue: 1 << 0)
    /// Fonts (size, weight, text style) are declared.
    public static let fonts = SnapshotCapabilities(rawValue: 1 << 1)
    /// Animations are declared.
    public static let animations = SnapshotCapabilities(rawValue: 1 << 2)
    /// Element names are the platform's view classes (`XCUIElementTypeButton`,
    /// `android.widget.ImageButton`): worth quoting in evidence.
    public static let platformTypeNames = SnapshotCapabilities(rawValue: 1 << 3)
    /// Every node's name comes from its content (Android announces a node's text and that
    /// of its descendants), whatever its role.
    public static let namesFromContent = SnapshotCapabilities(rawValue: 1 << 4)
    /// Frames are what is visible: a scrolling container's child is cut at its edge
    /// (Android bounds). Without it (XCUITest reports every element's whole frame, scrolled
    /// off or not), a target touching a scroller's edge was not cut by it.
    public static let visibleFrames = SnapshotCapabilities(rawValue: 1 << 6)
    /// The snapshot's own `scale` gives the whole screen exactly (a native snapshot): its
    /// screenshot must be that size. Without it (an Android dump, whose root may leave out
    /// the navigation bar), the image may be taller than the screen the dump describes.
    public static let exactScreenSize = SnapshotCapabilities(rawValue: 1 << 7)
    /// A screenshot came with the snapshot: colours can be read from its pixels.
    public static let colorsFromPixels = SnapshotCapabilities(rawValue: 1 << 5)
    /// Which elements are headings is said: a native snapshot's `traits`, and an Appium
    /// source's `traits` or a UiAutomator2 dump's `heading` when the capture has them (older
    /// tools write neither: nothing is then known of headings, not that there are none).
    public static let headings = SnapshotCapabilities(rawValue: 1 << 8)
    /// A text element's frame is its text's own box, with no padding (XCUITest's static
    /// texts): one line's frame is as tall as the font's line height, so the text drawn
    /// larger has the taller frame.
    public static let textFramesHugText = SnapshotCapabilities(rawValue: 1 << 9)
}
