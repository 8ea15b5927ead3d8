/// Every attribute the three dialects carry that means something to the model.
/// The parser maps each attribute name to a key once per document (names are
/// interned by libxml2), then decodes values by key.
enum AttributeKey: UInt8 {
    case unknown
    // Native <element> (SPEC §2)
    case id, role, label, value, hint, text, placeholder, image, traits
    case accessible, hidden, visible, enabled, interactive
    case frame, hitFrame, foreground, background, border, opacity
    case fontSize, fontWeight, textStyle, scalesWithContentSize, truncated, underline, a11yIgnore
    case largeContentViewer, drawsContent, modal, supportsEscape, mainAction, magicTap
    // Appium XCUITest
    case type, name, x, y, width, height, placeholderValue, selected, bundleId
    // Android uiautomator / UiAutomator2
    case className, contentDesc, resourceId, clickable, longClickable, checkable, checked, bounds
    case displayed, visibleToUser, heading, screenReaderFocusable, importantForAccessibility
    case notAccessibilityFriendly, focusable, packageName, tooltipText, password

    static func native(_ name: String) -> AttributeKey {
        switch name {
        case "id": .id
        case "role": .role
        case "label": .label
        case "value": .value
        case "hint": .hint
        case "text": .text
        case "placeholder": .placeholder
        case "image": .image
        case "traits": .traits
        case "accessible": .accessible
        case "hidden": .hidden
        case "visible": .visible
        case "enabled": .enabled
        case "interactive": .interactive
        case "frame": .frame
        case "hit-frame": .hitFrame
        case "foreground": .foreground
        case "background": .background
        case "border": .border
        case "opacity": .opacity
        case "font-size": .fontSize
        case "font-weight": .fontWeight
        case "text-style": .textStyle
        case "scales-with-content-size": .scalesWithContentSize
        case "truncated": .truncated
        case "underline": .underline
        case "a11y-ignore": .a11yIgnore
        case "large-content-viewer": .largeContentViewer
        case "draws-content": .drawsContent
        case "modal": .modal
        case "supports-escape": .supportsEscape
        case "main-action": .mainAction
        case "magic-tap": .magicTap
        default: .unknown
        }
    }

    static func appium(_ name: String) -> AttributeKey {
        switch name {
        case "type": .type
        case "name": .name
        case "label": .label
        case "value": .value
        case "enabled": .enabled
        case "visible": .visible
        case "accessible": .accessible
        case "x": .x
        case "y": .y
        case "width": .width
        case "height": .height
        case "traits": .traits
        case "placeholderValue": .placeholderValue
        case "selected": .selected
        case "bundleId": .bundleId
        default: .unknown
        }
    }

    static func android(_ name: String) -> AttributeKey {
        switch name {
        case "class": .className
        case "text": .text
        case "content-desc": .contentDesc
        case "resource-id": .resourceId
        case "clickable": .clickable
        case "long-clickable": .longClickable
        case "checkable": .checkable
        case "checked": .checked
        case "enabled": .enabled
        case "selected": .selected
        case "bounds": .bounds
        case "displayed": .displayed
        case "visible-to-user": .visibleToUser
        case "heading": .heading
        case "screen-reader-focusable": .screenReaderFocusable
        case "a11y-important", "important-for-accessibility": .importantForAccessibility
        case "NAF": .notAccessibilityFriendly
        case "focusable": .focusable
        case "package": .packageName
        case "hint": .hint
        case "tooltip-text": .tooltipText
        case "password": .password
        default: .unknown
        }
    }
}
