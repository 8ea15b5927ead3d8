import CLibXML2

/// Appium XCUITest page sources (docs/dialects.md): `type`, `name`, `label`, `value`,
/// `x`/`y`/`width`/`height`, `enabled`, `visible`, `accessible`, `traits` onto the model.
extension SnapshotBuilder {
    func decodeAppium(_ attributes: AttributeList, into element: inout Element, index: Int) {
        var x: Double?, y: Double?, width: Double?, height: Double?
        var name: TextRef = .absent
        var bundleId: String?
        for attribute in attributes {
            let key = attributeKey(attribute, dialect: .appiumXCUITest)
            if key == .unknown { continue }
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: index, owner: "element",
                                       name: attribute.name, line: Int(element.line))
                func invalid(_ expected: String) { read.invalid(expected) }
                func flag() -> Bool? { read.flag() }
                func coordinate() -> Double? {
                    let result = ValueScanner.number(value)
                    if result == nil { invalid("a number of points") }
                    return result
                }
                switch key {
                case .type:
                    element.typeName = texts.append(value)
                    element.role = DialectRoles.appiumRole(type: ValueScanner.string(value))
                case .name: name = texts.append(value)
                case .label: element.label = texts.append(value)
                case .value: element.value = texts.append(value)
                case .placeholderValue: element.placeholder = texts.append(value)
                case .enabled: element.enabled = flag()
                case .visible: element.visible = flag()
                case .accessible: element.accessible = flag()
                case .selected: if flag() == true { element.traits.insert(.selected) }
                case .traits: element.traits.formUnion(Traits.parse(ValueScanner.string(value)))
                case .x: x = coordinate()
                case .y: y = coordinate()
                case .width: width = coordinate()
                case .height: height = coordinate()
                case .bundleId: bundleId = ValueScanner.string(value)
                default: break
                }
            }
        }
        if element.typeName.isAbsent {
            element.typeName = element.tagName
            element.role = DialectRoles.appiumRole(type: texts.string(element.tagName) ?? "")
        }
        // WebDriverAgent's `name` is the accessibilityIdentifier, or the label when there is none.
        if !name.isAbsent, texts.string(name) != texts.string(element.label) {
            element.id = name
        }
        if element.role == .text, texts.isBlank(element.text) {
            element.text = texts.isBlank(element.value) ? element.label : element.value
        }
        if let x, let y, let width, let height {
            // Off-screen and collapsed elements come with negative sizes: read them as empty.
            element.frame = Rect(x: x, y: y, width: max(0, width), height: max(0, height))
        }
        if element.traits.contains(.notEnabled) { element.enabled = false }
        if element.role == .window, texts.string(element.typeName) == "XCUIElementTypeApplication" {
            if app == nil { app = bundleId ?? texts.string(element.label) }
            if self.width == nil, let frame = element.frame, frame.width > 0 {
                self.width = frame.width
                self.height = frame.height
            }
        }
    }
}
