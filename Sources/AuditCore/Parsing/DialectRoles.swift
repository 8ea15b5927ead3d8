/// How the dialects' own element types map onto ``Role`` (tables also in docs/dialects.md).
enum DialectRoles {
    /// `XCUIElementType…` suffix → role. Anything else is a container (`Other` is `other`).
    static let appium: [String: Role] = [
        "Application": .window, "Window": .window,
        "Button": .button, "Key": .button, "MenuItem": .button, "MenuButton": .button, "PopUpButton": .button,
        "Link": .link,
        "StaticText": .text,
        "TextField": .textfield, "SecureTextField": .textfield, "TextView": .textfield, "SearchField": .textfield,
        "Image": .image, "Icon": .image,
        "Switch": .switch, "Toggle": .switch,
        "Slider": .slider, "PickerWheel": .slider,
        "Stepper": .stepper,
        "CheckBox": .checkbox,
        "RadioButton": .radio,
        "Tab": .tab,
        "Cell": .cell,
        "ProgressIndicator": .progress, "ActivityIndicator": .progress,
        "Other": .other,
    ]

    static func appiumRole(type: String) -> Role {
        let prefix = "XCUIElementType"
        let name = type.hasPrefix(prefix) ? String(type.dropFirst(prefix.count)) : type
        return appium[name] ?? .container
    }

    /// Android simple class name → role, tried in order against the end of the class name.
    static let android: [(suffix: String, role: Role)] = [
        ("RadioButton", .radio), ("CheckBox", .checkbox), ("CheckedTextView", .checkbox),
        ("Switch", .switch), ("SwitchCompat", .switch), ("SwitchMaterial", .switch), ("ToggleButton", .switch),
        ("ImageButton", .button), ("FloatingActionButton", .button), ("Button", .button), ("Chip", .button),
        ("EditText", .textfield), ("AutoCompleteTextView", .textfield), ("SearchView", .textfield),
        ("TextView", .text), ("TextSwitcher", .text),
        ("ImageView", .image), ("ImageSwitcher", .image),
        ("SeekBar", .slider), ("RatingBar", .slider), ("Slider", .slider),
        ("NumberPicker", .stepper),
        ("ProgressBar", .progress),
        ("$Tab", .tab), ("TabView", .tab),
        ("Spinner", .button),
        ("View", .other),
    ]

    static func androidRole(className: String) -> Role {
        for entry in android where className.hasSuffix(entry.suffix) {
            // "…View" alone is a plain view; layouts, lists and pagers are containers.
            if entry.suffix == "View", className.hasSuffix(".View") == false, className != "View" { break }
            return entry.role
        }
        return .container
    }
}
