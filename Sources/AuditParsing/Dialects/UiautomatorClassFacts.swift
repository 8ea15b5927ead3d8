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
    /// A list, grid or scroll view: TalkBack's roles `ROLE_LIST`, `ROLE_GRID`,
    /// `ROLE_SCROLL_VIEW`, `ROLE_HORIZONTAL_SCROLL_VIEW`, whose children are items of their
    /// own (`isTopLevelScrollItem`) whether or not the node scrolls.
    var holdsItems: Bool

    init(className: String) {
        role = UiautomatorDialect.androidRole(className: className)
        scrollAxes = UiautomatorDialect.scrollAxes(className: className)
        ordersByPosition = className.hasSuffix(".ComposeView") || className.hasSuffix(".AndroidComposeView")
        holdsItems = ["RecyclerView", "ListView", "GridView", "ScrollView"].contains { className.hasSuffix($0) }
    }
}
