/// What an Android dump's class name (`android.widget.Button`, …) says of its node: its
/// role, the way it scrolls when `scrollable`, and whether Compose orders its children.
/// Read from the name as a `String` once per distinct name in a document
/// (``ByteKeyedMemo``), not by trying the class against every suffix on every node.
struct UiautomatorClassFacts: Equatable {
    var role: Role
    /// The directions it scrolls in when the node says `scrollable`.
    var scrollAxes: ScrollAxes
    /// A Compose host: TalkBack reads its nodes by position.
    var ordersByPosition: Bool

    init(className: String) {
        role = UiautomatorDialect.androidRole(className: className)
        scrollAxes = UiautomatorDialect.scrollAxes(className: className)
        ordersByPosition = className.hasSuffix(".ComposeView") || className.hasSuffix(".AndroidComposeView")
    }
}
