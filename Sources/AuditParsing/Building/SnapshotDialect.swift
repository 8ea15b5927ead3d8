/// One input vocabulary: how its documents are recognised, what they can say, and how
/// their element names and attributes map onto the model. A new dialect (Flutter's
/// semantics tree, a web accessibility tree) is one file with one type conforming to this,
/// and one line in ``SnapshotDialects/all``.
protocol SnapshotDialect: Sendable {
    /// The dialect's identity in reports.
    static var dialect: Dialect { get }
    /// Its name for people (`Android uiautomator`), in errors.
    static var title: String { get }
    /// Its root element as users write it (`<hierarchy>`), in errors.
    static var rootExample: String { get }
    /// What snapshots of this dialect can carry; rules ask this, never the dialect.
    static var capabilities: SnapshotCapabilities { get }
    /// The root of element paths in reports (`/hierarchy`).
    static var pathRoot: StaticString { get }
    /// Whether an element its document marks invisible hides its descendants too (native
    /// `visible="false"`), or each element states its own visibility (Appium and
    /// uiautomator compute it per element, ancestors included).
    static var inheritsVisibility: Bool { get }
    /// Whether a disabled element disables its descendants (native, XCUITest), or each
    /// element states its own (Android: a disabled ViewGroup's children stay enabled and
    /// tappable — one real dump's disabled container held 78 enabled nodes).
    static var inheritsEnabled: Bool { get }
    /// What a document whose root element is `name` is to this dialect; `nil`: not its.
    static func root(named name: String) -> DialectRoot?
    /// Reads the root element's attributes (screen size, version, platform).
    static func readRoot(_ attributes: AttributeList, builder: SnapshotBuilder)
    /// What an element name below the root means.
    static func kind(ofElementNamed name: String) -> SnapshotBuilder.NameKind
    /// The attributes the dialect reads: an enum of its own, so a new dialect's names touch
    /// no other dialect.
    associatedtype Key: DialectAttributeKey
    /// The key of an attribute name (asked once per name and document).
    static func attributeKey(named name: String) -> Key
    /// The file extensions its captures are saved with, lower case without the dot
    /// (`xml`): auditctl looks for these in directories and strips them to find a
    /// capture's screenshot beside it.
    static var fileExtensions: [String] { get }
    /// The media types it is sent as (`application/xml`).
    static var contentTypes: [String] { get }
    /// Decodes one UI element's attributes onto `element`. Contract: set `element.role`
    /// and `element.frame` when the capture says them, and `element.typeName` to the
    /// platform's own type name when it has one (`XCUIElementTypeButton`,
    /// `android.widget.Button`; a native snapshot's `type`) — `snapshot.unauditable` reports
    /// a capture in which no element has a type name as one it cannot audit
    /// (`no-types`), and reads the names to tell an iOS capture sent as Android.
    static func decode(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        tag: UnsafePointer<UInt8>, builder: SnapshotBuilder)
    /// What the dialect keeps while one document is read (Android: the packages of its
    /// nodes, the screen's rotation), made when its root is recognised; `nil` for none.
    /// The builder holds it for the dialect (``SnapshotBuilder/dialectState(as:)``) and
    /// knows nothing of what is in it.
    static func makeState() -> (any DialectState)?
    /// The dialect a document recognised as this one by its root is really in, read from
    /// its first UI element's attributes (`<hierarchy><node type="XCUIElementType…">`: an
    /// iOS source in uiautomator's shape), with the platform it implies; `nil`: this one.
    static func refinedDialect(firstElement attributes: AttributeList) -> (dialect: any SnapshotDialect.Type, platform: Platform)?
    /// Last steps once every element is read (pixels to points).
    static func finish(_ builder: SnapshotBuilder)
    /// The length of the document in `bytes` when the tool that writes this dialect adds
    /// text after it (with the note to give), else `nil`.
    static func documentLength(_ bytes: UnsafeRawBufferPointer) -> (length: Int, note: String)?
}

/// The state of one dialect for one document (see ``SnapshotDialect/makeState()``): a final
/// class, looked up by its type's identity (``SnapshotBuilder/dialectState(as:)``).
protocol DialectState: AnyObject {}

/// How a dialect reads its root element.
enum DialectRoot {
    /// A container of UI elements (`<hierarchy>`), with the platform it implies.
    case container(Platform?)
    /// The root is itself the first UI element (an Appium source cut below `<AppiumAUT>`).
    case element(Platform?)
}

extension SnapshotDialect {
    static var fileExtensions: [String] { ["xml"] }
    static var contentTypes: [String] { ["application/xml", "text/xml"] }
    static var inheritsVisibility: Bool { false }
    static var inheritsEnabled: Bool { true }
    static func readRoot(_ attributes: AttributeList, builder: SnapshotBuilder) {}
    static func makeState() -> (any DialectState)? { nil }
    static func refinedDialect(firstElement attributes: AttributeList) -> (dialect: any SnapshotDialect.Type, platform: Platform)? { nil }
    static func finish(_ builder: SnapshotBuilder) {}
    static func documentLength(_ bytes: UnsafeRawBufferPointer) -> (length: Int, note: String)? { nil }
}
