/// What an element is, as assistive technology sees it (docs/snapshot-format.md, `role`).
///
/// Every dialect maps its own vocabulary (XCUIElementType…, Android widget classes)
/// onto these cases. An unknown native value is kept in ``Element/typeName`` and
/// treated as ``other``.
public enum Role: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case window, container, button, link, text, textfield, image, `switch`, slider
    case stepper, checkbox, radio, tab, cell, progress, other

    /// The native format's spelling of the role.
    public var name: String {
        switch self {
        case .window: "window"
        case .container: "container"
        case .button: "button"
        case .link: "link"
        case .text: "text"
        case .textfield: "textfield"
        case .image: "image"
        case .switch: "switch"
        case .slider: "slider"
        case .stepper: "stepper"
        case .checkbox: "checkbox"
        case .radio: "radio"
        case .tab: "tab"
        case .cell: "cell"
        case .progress: "progress"
        case .other: "other"
        }
    }

    /// The role as people say it, in messages and the report's element names: the
    /// format's `other` is an "element", a `container` a "group", a `cell` a "row".
    public var word: String {
        switch self {
        case .container: "group"
        case .textfield: "text field"
        case .radio: "radio button"
        case .cell: "row"
        case .progress: "progress bar"
        case .other: "element"
        default: name
        }
    }

    public var description: String { name }

    /// Reads a native role name; `nil` for a name docs/snapshot-format.md does not list.
    public init?(name: String) {
        switch name {
        case "window": self = .window
        case "container": self = .container
        case "button": self = .button
        case "link": self = .link
        case "text": self = .text
        case "textfield": self = .textfield
        case "image": self = .image
        case "switch": self = .switch
        case "slider": self = .slider
        case "stepper": self = .stepper
        case "checkbox": self = .checkbox
        case "radio": self = .radio
        case "tab": self = .tab
        case "cell": self = .cell
        case "progress": self = .progress
        case "other": self = .other
        default: return nil
        }
    }

    /// Roles that are accessibility elements unless told otherwise (docs/snapshot-format.md, `accessible`).
    public var isAccessibleByDefault: Bool {
        switch self {
        case .window, .container, .other: false
        default: true
        }
    }

    /// Roles that are interactive unless told otherwise (docs/snapshot-format.md, `interactive`).
    public var isInteractiveByDefault: Bool {
        switch self {
        case .button, .link, .textfield, .switch, .slider, .stepper, .checkbox, .radio, .tab: true
        default: false
        }
    }
}
