/// iOS page sources in uiautomator's shape — `<hierarchy>` holding `<node
/// type="XCUIElementType…" name label value x y width height …>` — as older Appium
/// inspectors and some tools write them: the attributes of an Appium XCUITest source on
/// elements all named `node`. Recognised by ``UiautomatorDialect`` from its first node
/// (``SnapshotDialect/refinedDialect(firstElement:)``) and read as
/// ``AppiumXCUITestDialect`` reads its elements.
enum AppiumXCUITestNodesDialect: SnapshotDialect {
    static let dialect = Dialect.appiumXCUITest
    static let title = "Appium XCUITest (hierarchy of nodes)"
    static let rootExample = "<hierarchy><node type=\"XCUIElementType…\">"
    static let capabilities = AppiumXCUITestDialect.capabilities
    static let pathRoot: StaticString = "/hierarchy"

    /// Never recognised by its root alone (`<hierarchy>` is Android's until its first node).
    static func root(named name: String) -> DialectRoot? { nil }

    /// Every element below the root is a node, whatever its name.
    static func kind(ofElementNamed name: String) -> SnapshotBuilder.NameKind { .element }

    typealias Key = AppiumXCUITestDialect.Key

    static func attributeKey(named name: String) -> Key { AppiumXCUITestDialect.attributeKey(named: name) }

    static func makeState() -> (any DialectState)? { AppiumXCUITestDialect.makeState() }

    static func decode(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        tag: UnsafePointer<UInt8>, builder: SnapshotBuilder
    ) {
        builder.decodeAppium(attributes, into: &element, index: index)
    }

    static func finish(_ builder: SnapshotBuilder) { AppiumXCUITestDialect.finish(builder) }
}
