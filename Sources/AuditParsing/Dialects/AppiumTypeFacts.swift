/// What an Appium source's element type (`XCUIElementTypeButton`, …) says of its element:
/// its role, and whether it is the system's, modal, scrolls, or is the application. Read
/// from the name as a `String` once per distinct name in a document (``ByteKeyedMemo``),
/// not once per element: a 100,000-element page source made five strings an element
/// from the same two dozen names.
struct AppiumTypeFacts: Equatable {
    var role: Role
    /// The system keyboard and status bar: their keys and items are not the app's targets.
    var systemUI: Bool
    /// An alert or an action sheet: VoiceOver reaches nothing else while one is open.
    var modal: Bool
    var scrollAxes: ScrollAxes?
    /// `XCUIElementTypeApplication`: its frame is the screen's, its label the app's name.
    var isApplication: Bool

    init(typeName: String) {
        role = AppiumXCUITestDialect.appiumRole(type: typeName)
        systemUI = typeName == "XCUIElementTypeKeyboard" || typeName == "XCUIElementTypeStatusBar"
        modal = typeName == "XCUIElementTypeAlert" || typeName == "XCUIElementTypeSheet"
        scrollAxes = AppiumXCUITestDialect.scrollingTypes[typeName]
        isApplication = typeName == "XCUIElementTypeApplication"
    }
}
