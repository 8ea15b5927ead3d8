/// Appium XCUITest page sources (docs/dialects.md): `type`, `name`, `label`, `value`,
/// `x`/`y`/`width`/`height`, `enabled`, `visible`, `accessible`, `traits` onto the model.
enum AppiumXCUITestDialect: SnapshotDialect {
    static let dialect = Dialect.appiumXCUITest
    static let title = "Appium XCUITest"
    static let rootExample = "<AppiumAUT>"
    static let capabilities: SnapshotCapabilities = [.platformTypeNames, .textFramesHugText]
    static let pathRoot: StaticString = "/AppiumAUT"

    static func root(named name: String) -> DialectRoot? {
        if name == "AppiumAUT" { return .container(.ios) }
        // An Appium source cut below <AppiumAUT>: the application itself is the root.
        return name.hasPrefix("XCUIElementType") ? .element(.ios) : nil
    }

    static func kind(ofElementNamed name: String) -> SnapshotBuilder.NameKind {
        name.hasPrefix("XCUIElementType") ? .element : .ignored
    }

    /// The cells of a table (`XCUIElementTypeTable`, UIKit's `UITableView`) are table cells:
    /// VoiceOver reads one as a whole, where a collection view's cell holds elements.
    static func finish(_ builder: SnapshotBuilder) {
        builder.markTableCells()
    }

    /// The attributes this dialect reads, each mapped from its names below.
    enum Key: UInt8, DialectAttributeKey {
        case unknown
        case type, name, label, value, enabled, visible, accessible, x
        case y, width, height, traits, placeholderValue, selected, bundleId
    }

    static func attributeKey(named name: String) -> Key {
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

    /// What reading one page source keeps: the facts of the element types seen.
    final class DocumentState: DialectState {
        var types = ByteKeyedMemo<AppiumTypeFacts>()
    }

    static func makeState() -> (any DialectState)? { DocumentState() }

    static func decode(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        tag: UnsafePointer<UInt8>, builder: SnapshotBuilder
    ) {
        builder.decodeAppium(attributes, into: &element, index: index)
    }

    /// Element types that scroll their content, and which way.
    static let scrollingTypes: [String: ScrollAxes] = [
        "XCUIElementTypeScrollView": .both, "XCUIElementTypeTable": .vertical,
        "XCUIElementTypeCollectionView": .both, "XCUIElementTypeWebView": .both,
    ]

    /// How `XCUIElementType…` names map onto ``Role`` (also in docs/dialects.md).
    /// `XCUIElementType…` suffix → role. Anything else is a container (`Other` is `other`).
    static let appium: [String: Role] = [
        "Application": .window, "Window": .window,
        "Button": .button, "Key": .button, "MenuItem": .button, "MenuButton": .button, "PopUpButton": .button,
        "Link": .link,
        "StaticText": .text,
        "TextField": .textfield, "SecureTextField": .textfield, "TextView": .textfield, "SearchField": .textfield,
        "Image": .image, "Icon": .image,
        "Switch": .switch, "Toggle": .switch,
        // UIPageControl is adjustable ("page 2 of 3").
        "Slider": .slider, "PickerWheel": .slider, "PageIndicator": .slider,
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
}

extension Dialect {
    /// Appium XCUITest page source (`<AppiumAUT>` with `XCUIElementType…` elements).
    public static let appiumXCUITest = Dialect(rawValue: "appium-xcuitest")
}

extension SnapshotBuilder {
    func decodeAppium(_ attributes: AttributeList, into element: inout Element, index: Int) {
        var x: Double?, y: Double?, width: Double?, height: Double?
        var name: TextRef = .absent
        var bundleId: String?
        forEachKnownAttribute(attributes, of: AppiumXCUITestDialect.self, element: index, owner: "element", line: Int(element.line)) { key, read in
            let value = read.value
            func coordinate() -> Double? {
                let result = ValueScanner.number(value)
                if result == nil { read.invalid("a number of points") }
                return result
            }
            switch key {
            case .type: element.typeName = texts.append(value)
            case .name: name = texts.append(value)
            case .label: element.label = texts.append(value)
            case .value: element.value = texts.append(value)
            case .placeholderValue: element.placeholder = texts.append(value)
            case .enabled: element.enabled = read.flag()
            case .visible: element.visible = read.flag()
            case .accessible: element.accessible = read.flag()
            case .selected: if read.flag() == true { element.traits.insert(.selected) }
            case .traits:
                element.traits.formUnion(Traits.parse(ValueScanner.string(value)))
                learned.insert(.headings)
            case .x: x = coordinate()
            case .y: y = coordinate()
            case .width: width = coordinate()
            case .height: height = coordinate()
            case .bundleId: bundleId = ValueScanner.string(value)
            default: break
            }
        }
        if element.typeName.isAbsent { element.typeName = element.tagName }
        // Read from the type's bytes: the same two dozen names on every element.
        let facts = texts.bytes.withUnsafeBufferPointer { table in
            let start = element.typeName.isAbsent ? 0 : Int(element.typeName.offset)
            let type = UnsafeBufferPointer(rebasing: table[start..<start + Int(element.typeName.count)])
            let read = { (name: UnsafeBufferPointer<UInt8>) in AppiumTypeFacts(typeName: String(decoding: name, as: UTF8.self)) }
            return dialectState(as: AppiumXCUITestDialect.DocumentState.self)?.types.value(for: type, read) ?? read(type)
        }
        element.role = facts.role
        // UIKit makes no UIImageView an accessibility element unless the app does: where an
        // older source does not say (no `accessible`), an image is not one.
        if element.accessible == nil, element.role == .image { element.accessible = false }
        // WebDriverAgent's `name` is the accessibilityIdentifier, or the label when there is none.
        if !name.isAbsent, !texts.sameText(name, element.label) {
            element.id = name
        }
        // The system keyboard and status bar (their keys and items are the system's, not the
        // app's targets), and the scroll indicators UIScrollView draws ("Vertical scroll bar,
        // 3 pages").
        if facts.systemUI { element.systemUI = true }
        // The keyboard's globe and dictation keys sit outside the Keyboard element, marked
        // as keys: the system's too.
        if element.traits.contains(.keyboardKey) { element.systemUI = true }
        // An alert and an action sheet are modal: VoiceOver reaches nothing else while one
        // is open.
        if facts.modal { element.modal = true }
        if let axes = facts.scrollAxes { element.scrollAxes = axes }
        if texts.hasPrefix(element.label, "Vertical scroll bar") || texts.hasPrefix(element.label, "Horizontal scroll bar") {
            element.systemUI = true
        }
        if element.role == .text, texts.isBlank(element.text) {
            element.text = texts.isBlank(element.value) ? element.label : element.value
        }
        if let x, let y, let width, let height {
            // Off-screen and collapsed elements come with negative sizes: read them as empty.
            element.frame = Rect(x: x, y: y, width: max(0, width), height: max(0, height))
        }
        if element.traits.contains(.notEnabled) { element.enabled = false }
        if element.role == .window, facts.isApplication {
            if app == nil { app = bundleId ?? texts.string(element.label) }
            if self.width == nil, let frame = element.frame, frame.width > 0 {
                self.width = frame.width
                self.height = frame.height
            }
        }
    }
}
