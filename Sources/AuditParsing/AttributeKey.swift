/// Every attribute the dialects carry that means something to the model. Each dialect
/// maps its names onto these (``SnapshotDialect/attributeKey(named:)``) once per document
/// (names are interned by libxml2); its decoder then reads values by key.
enum AttributeKey: UInt8 {
    case unknown
    // Native <element> (docs/snapshot-format.md)
    case id, role, label, value, hint, text, placeholder, image, traits
    case accessible, hidden, visible, enabled, interactive
    case frame, hitFrame, foreground, background, border, opacity
    case fontSize, fontWeight, textStyle, scalesWithContentSize, truncated, underline, a11yIgnore
    case largeContentViewer, drawsContent, modal, supportsEscape, mainAction, magicTap, scrollable
    // Appium XCUITest
    case type, name, x, y, width, height, placeholderValue, selected, bundleId
    // Android uiautomator / UiAutomator2
    case className, contentDesc, resourceId, clickable, longClickable, checkable, checked, bounds
    case displayed, visibleToUser, heading, screenReaderFocusable, importantForAccessibility
    case notAccessibilityFriendly, focusable, packageName, tooltipText, password, drawingOrder, showingHint
}
