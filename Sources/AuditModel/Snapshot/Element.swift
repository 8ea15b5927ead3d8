/// One UI element of a snapshot, decoded once into typed values (docs/snapshot-format.md, `<element>`).
///
/// Elements live in flat storage in document order (``Snapshot/elements``); tree links
/// are indexes into that array (`-1` for none). String attributes are ``TextRef``s into
/// the snapshot's ``TextTable``; read them through ``Snapshot/text(_:)`` or a ``Node``.
/// Optional values are `nil` when the snapshot did not say (or the dialect cannot say).
public struct Element: Sendable {
    // MARK: Tree and source position
    public package(set) var parent: Int32 = -1
    public package(set) var firstChild: Int32 = -1
    public package(set) var nextSibling: Int32 = -1
    public package(set) var depth: Int32 = 0
    /// 1-based position among siblings with the same XML name (for ``Snapshot/path(of:)``).
    public package(set) var position: Int32 = 1
    public package(set) var line: Int32 = 0
    public package(set) var column: Int32 = 0
    /// Range of this element's animations in ``Snapshot/animations``.
    public package(set) var animationStart: Int32 = 0
    public package(set) var animationCount: Int32 = 0

    // MARK: Identity and announced text
    /// The XML element name (`element`, `XCUIElementTypeButton`, `node`, `android.widget.Button`).
    public package(set) var tagName: TextRef = .absent
    /// The dialect's own type: the native `role` text, `XCUIElementType…`, or the Android class.
    public package(set) var typeName: TextRef = .absent
    public package(set) var id: TextRef = .absent
    public package(set) var label: TextRef = .absent
    public package(set) var value: TextRef = .absent
    public package(set) var hint: TextRef = .absent
    public package(set) var text: TextRef = .absent
    public package(set) var placeholder: TextRef = .absent
    public package(set) var image: TextRef = .absent
    /// Raw `a11y-ignore` list: rule ids or globs separated by spaces.
    public package(set) var ignoredRules: TextRef = .absent
    /// Custom actions (VoiceOver's actions rotor, TalkBack's actions menu), their names
    /// separated by `;` (native `actions`).
    public package(set) var actions: TextRef = .absent
    /// The custom rotor that lists this element (native `rotor`).
    public package(set) var rotor: TextRef = .absent

    // MARK: Geometry and appearance (stored packed; read through the computed properties)
    var packedFrame = PackedRect.absent
    var packedHitFrame = PackedRect.absent
    var packedOpacity = Float.nan
    var packedFontSize = Float.nan
    var packedEffectiveOpacity: Float = 1
    public package(set) var traits: Traits = []
    /// The stated flags (nil: not stated), read and written through their properties
    /// (`accessible`, `hidden`, … below): two bits each, in the order of the properties
    /// (0: not stated, 2: false, 3: true) — 4 bytes for sixteen flags where sixteen `Bool?`
    /// took 16, for every element of the screen, held through the audit. Placed between
    /// fields of 4 and 5 bytes so that no byte is lost to alignment (224 bytes an element).
    var packedFlags: UInt32 = 0
    public package(set) var foreground: RGBA?
    public package(set) var background: RGBA?
    public package(set) var border: RGBA?
    /// The seventeenth stated flag (bits 0–1) and the plain ones (bits 2, 3, 4).
    var packedMoreFlags: UInt8 = 0
    public package(set) var fontWeight: Int16?
    public package(set) var role: Role = .other
    public package(set) var textStyle: TextStyle?

    /// The directions it scrolls its content in (Android `scrollable`, iOS scroll views,
    /// tables and collection views, the native `scrollable`): a child touching its edge in
    /// one of them may be cut off by it. Empty when it does not scroll.
    public package(set) var scrollAxes: ScrollAxes = []
    /// Android `drawing-order`: the order in which its parent draws it among its siblings
    /// (higher is drawn later, above); `nil` when not given.
    public package(set) var drawingOrder: Int32?

    // MARK: Derived once, after parsing (see ``DerivedFacts``)
    public package(set) var facts: ElementFacts = []
    /// The opaque colour behind the element: ancestor backgrounds composited with their
    /// alpha and opacity; `nil` when no opaque layer was found.
    public package(set) var backdrop: RGBA?
    /// The opaque colour behind the element's content: its own background over ``backdrop``.
    public package(set) var effectiveBackground: RGBA?

    public init() {}

    // MARK: Stated flags

    public package(set) var accessible: Bool? {
        get { stated(at: 0) }
        set { state(newValue, at: 0) }
    }
    public package(set) var hidden: Bool? {
        get { stated(at: 2) }
        set { state(newValue, at: 2) }
    }
    public package(set) var visible: Bool? {
        get { stated(at: 4) }
        set { state(newValue, at: 4) }
    }
    public package(set) var enabled: Bool? {
        get { stated(at: 6) }
        set { state(newValue, at: 6) }
    }
    public package(set) var interactive: Bool? {
        get { stated(at: 8) }
        set { state(newValue, at: 8) }
    }
    /// Takes the screen reader's focus as one stop though it may not act (Android
    /// `focusable`): what is inside it is said as part of it.
    public package(set) var focusable: Bool? {
        get { stated(at: 10) }
        set { state(newValue, at: 10) }
    }
    public package(set) var scalesWithContentSize: Bool? {
        get { stated(at: 12) }
        set { state(newValue, at: 12) }
    }
    public package(set) var truncated: Bool? {
        get { stated(at: 14) }
        set { state(newValue, at: 14) }
    }
    public package(set) var underline: Bool? {
        get { stated(at: 16) }
        set { state(newValue, at: 16) }
    }
    public package(set) var checked: Bool? {
        get { stated(at: 18) }
        set { state(newValue, at: 18) }
    }
    /// Android's `NAF`: uiautomator found it clickable with no text or description.
    public package(set) var notAccessibilityFriendly: Bool? {
        get { stated(at: 20) }
        set { state(newValue, at: 20) }
    }
    // Extensions for the VoiceOver and Dynamic Type rules (docs/snapshot-format.md).
    /// Offers the Large Content Viewer (a long press shows the item enlarged).
    public package(set) var largeContentViewer: Bool? {
        get { stated(at: 22) }
        set { state(newValue, at: 22) }
    }
    /// Draws its content itself (a custom-drawn view or canvas).
    public package(set) var drawsContent: Bool? {
        get { stated(at: 24) }
        set { state(newValue, at: 24) }
    }
    /// Presented modally.
    public package(set) var modal: Bool? {
        get { stated(at: 26) }
        set { state(newValue, at: 26) }
    }
    /// A modal that supports the escape gesture (two-finger Z) to dismiss.
    public package(set) var supportsEscape: Bool? {
        get { stated(at: 28) }
        set { state(newValue, at: 28) }
    }
    /// The screen's main action (play/pause, answer, send).
    public package(set) var mainAction: Bool? {
        get { stated(at: 30) }
        set { state(newValue, at: 30) }
    }
    /// The main action is reachable with the magic tap (two-finger double tap).
    public package(set) var magicTap: Bool? {
        get { Self.flag(UInt32(packedMoreFlags)) }
        set { packedMoreFlags = packedMoreFlags & ~3 | UInt8(Self.bits(newValue)) }
    }
    /// Drawn by the system, not the app, with what is inside it: the keyboard, the status and
    /// navigation bars, scroll indicators (set by the dialect's decoder).
    public package(set) var systemUI: Bool {
        get { packedMoreFlags & (1 << 2) != 0 }
        set { setMoreFlag(newValue, bit: 2) }
    }
    /// A screen reader visits what is inside it in order of position, not of the tree:
    /// Jetpack Compose's `ComposeView` sorts its semantics nodes into rows, top to bottom,
    /// each left to right (set by the dialect's decoder).
    public package(set) var ordersByPosition: Bool {
        get { packedMoreFlags & (1 << 3) != 0 }
        set { setMoreFlag(newValue, bit: 3) }
    }
    /// Painted over by a page drawn above it (``CoveredContent``): not on screen to judge.
    public package(set) var covered: Bool {
        get { packedMoreFlags & (1 << 4) != 0 }
        set { setMoreFlag(newValue, bit: 4) }
    }
    /// A list, grid or scroll view (Android's `RecyclerView`, `ListView`, `GridView`,
    /// `ScrollView`…): what is directly inside it is an item of its own to a screen reader,
    /// whether or not it scrolls now (everything fits), and it speaks no text of its own
    /// (set by the dialect's decoder).
    public package(set) var holdsItems: Bool {
        get { packedMoreFlags & (1 << 5) != 0 }
        set { setMoreFlag(newValue, bit: 5) }
    }
    /// The capture says the node is not important for accessibility (UiAutomator2's
    /// `a11y-important="false"`): TalkBack's tree leaves it out, its children standing in
    /// its place (set by the dialect's decoder).
    public package(set) var unimportant: Bool {
        get { packedMoreFlags & (1 << 6) != 0 }
        set { setMoreFlag(newValue, bit: 6) }
    }
    /// A table's cell (UIKit's `UITableViewCell`): VoiceOver makes one element of it that
    /// reads its texts in order, unless the capture says otherwise; a collection view's cell
    /// is not one by default (set by the dialect's decoder).
    public package(set) var tableCell: Bool {
        get { packedMoreFlags & (1 << 7) != 0 }
        set { setMoreFlag(newValue, bit: 7) }
    }

    /// A stated flag from its two bits.
    @inline(__always) private static func flag(_ bits: UInt32) -> Bool? {
        switch bits & 3 {
        case 0: nil
        case 3: true
        default: false
        }
    }

    /// The two bits of a stated flag.
    @inline(__always) private static func bits(_ flag: Bool?) -> UInt32 { flag.map { $0 ? 3 : 2 } ?? 0 }

    /// The stated flag whose two bits start at `shift` of ``packedFlags``.
    @inline(__always) private func stated(at shift: UInt32) -> Bool? { Self.flag(packedFlags >> shift) }

    /// Sets the stated flag whose two bits start at `shift` of ``packedFlags``.
    @inline(__always) private mutating func state(_ flag: Bool?, at shift: UInt32) {
        packedFlags = packedFlags & ~(3 << shift) | Self.bits(flag) << shift
    }

    /// Sets the plain flag at `bit` of ``packedMoreFlags``.
    @inline(__always) private mutating func setMoreFlag(_ flag: Bool, bit: UInt8) {
        packedMoreFlags = flag ? packedMoreFlags | (1 << bit) : packedMoreFlags & ~(1 << bit)
    }

    /// `x,y,width,height` in points (`frame`), `nil` when absent or unreadable.
    public package(set) var frame: Rect? {
        get { packedFrame.rect }
        set { packedFrame = PackedRect(newValue) }
    }

    /// The larger touch area (`hit-frame`), when given.
    public package(set) var hitFrame: Rect? {
        get { packedHitFrame.rect }
        set { packedHitFrame = PackedRect(newValue) }
    }

    /// 0…1, applies to the element and its subtree.
    public package(set) var opacity: Double? {
        get { packedOpacity.isNaN ? nil : Double(packedOpacity) }
        set { packedOpacity = newValue.map(Float.init) ?? .nan }
    }

    /// Font size in points.
    public package(set) var fontSize: Double? {
        get { packedFontSize.isNaN ? nil : Double(packedFontSize) }
        set { packedFontSize = newValue.map(Float.init) ?? .nan }
    }

    /// Product of the opacities of the element and its ancestors.
    public package(set) var effectiveOpacity: Double {
        get { Double(packedEffectiveOpacity) }
        set { packedEffectiveOpacity = Float(newValue) }
    }

    /// True when the element has a non-empty `id`.
    public var hasID: Bool { !id.isAbsent && id.count > 0 }
    public var isHidden: Bool { facts.contains(.hidden) }
    public var isVisible: Bool { facts.contains(.visible) }
    public var isEnabled: Bool { facts.contains(.enabled) }
    /// Part of the system's UI (the keyboard, system bars, scroll indicators): not the app's.
    public var isSystemUI: Bool { facts.contains(.systemUI) }
    public var isAccessible: Bool { facts.contains(.accessible) }
    public var isInteractive: Bool { facts.contains(.interactive) }
    /// The frame that receives touches: `hit-frame` when given, else `frame`.
    public var touchFrame: Rect? { hitFrame ?? frame }
}

/// The directions a container scrolls in.
public struct ScrollAxes: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let horizontal = ScrollAxes(rawValue: 1 << 0)
    public static let vertical = ScrollAxes(rawValue: 1 << 1)
    public static let both: ScrollAxes = [.horizontal, .vertical]
}

/// Facts derived once from an element and its ancestors.
public struct ElementFacts: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Hidden from assistive technology, by itself or an ancestor.
    public static let hidden = ElementFacts(rawValue: 1 << 0)
    /// Drawn: it and every ancestor visible, opacity above zero.
    public static let visible = ElementFacts(rawValue: 1 << 1)
    /// Enabled, and so is every ancestor.
    public static let enabled = ElementFacts(rawValue: 1 << 2)
    /// An accessibility element that is not hidden.
    public static let accessible = ElementFacts(rawValue: 1 << 3)
    /// Responds to touch: stated, or by role/traits.
    public static let interactive = ElementFacts(rawValue: 1 << 4)
    /// Part of the system's UI (it or an ancestor): not the app's to fix.
    public static let systemUI = ElementFacts(rawValue: 1 << 5)
}

/// A rectangle stored in 16 bytes (single precision is ample for points); NaN `x` means
/// absent.
struct PackedRect: Sendable {
    var x: Float
    var y: Float
    var width: Float
    var height: Float

    static let absent = PackedRect(x: .nan, y: 0, width: 0, height: 0)

    init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(_ rect: Rect?) {
        guard let rect else {
            self = .absent
            return
        }
        self.init(
            x: PackedRect.narrow(rect.x), y: PackedRect.narrow(rect.y),
            width: PackedRect.narrow(rect.width), height: PackedRect.narrow(rect.height))
    }

    /// A coordinate in single precision, clamped to its finite range: a snapshot may give
    /// any finite size (`7e38`), and an infinite one would break every computation on
    /// frames downstream (the spatial grid once trapped converting it to a cell count).
    static func narrow(_ value: Double) -> Float {
        let limit = Double(Float.greatestFiniteMagnitude)
        return Float(value > limit ? limit : value < -limit ? -limit : value)
    }

    var rect: Rect? {
        x.isNaN ? nil : Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }
}
